#!/usr/bin/env node
/**
 * `npm test`: the type check, the lint and the build side by side, then every vitest project.
 * The three are independent, mostly single-threaded, and together took over two minutes one after the
 * other on a 2-core machine; side by side they take about as long as the longest.
 * Each one's output is printed whole when it ends, so the three never interleave. Arguments go to vitest.
 */
import { spawn } from "node:child_process";

const checks = [
  ["types", "tsc", ["-b"]],
  ["lint", "eslint", ["."]],
  ["build", "vite", ["build", "--logLevel", "warn"]],
];

function run(name, command, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npx", ["--no-install", command, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("close", (code) => {
      const text = Buffer.concat(output).toString().trimEnd();
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      process.stdout.write(`${code === 0 ? "ok" : "FAILED"}  ${name} (${command} ${args.join(" ")}, ${seconds} s)\n${text ? `${text}\n` : ""}`);
      resolve(code === 0);
    });
  });
}

const results = await Promise.all(checks.map(([name, command, args]) => run(name, command, args)));
if (results.includes(false)) process.exit(1);

const vitest = spawn("npx", ["--no-install", "vitest", "run", ...process.argv.slice(2)], { stdio: "inherit" });
vitest.on("close", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
