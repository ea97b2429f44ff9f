import { useEffect, useState, useSyncExternalStore } from "react";
import { paths } from "../../config/paths";
import { getConsoleLines, installConsoleCapture, subscribeConsole } from "../../lib/console-capture";

/**
 * The footer's developer tools (admin link, grid borders, console lines, window size): a chunk of
 * its own, loaded when the Developer capsule is first opened (docs/decisions/023). Once loaded it stays
 * mounted, so a switch stays on while the panel is closed.
 */
function useWindowSize() {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener("resize", onResize);
    return () => window.removeEventListener("resize", onResize);
  }, []);
  return size;
}

function ConsolePanel() {
  const lines = useSyncExternalStore(subscribeConsole, getConsoleLines);
  return (
    <section className="dev-console" aria-label="Console (last 50 lines)">
      {lines.length === 0 ? (
        <p className="muted">No console output yet.</p>
      ) : (
        <ol>
          {lines.map((line, i) => (
            <li key={i} className={`console-${line.level}`}>
              <time>{line.time}</time> {line.text}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function WindowDimensions() {
  const { width, height } = useWindowSize();
  return (
    <output className="window-dimensions" aria-live="polite">
      {width} × {height}
    </output>
  );
}

export function DeveloperPanel({ open }: { open: boolean }) {
  const [gridBorders, setGridBorders] = useState(false);
  const [showConsole, setShowConsole] = useState(false);
  const [showDimensions, setShowDimensions] = useState(false);

  // Normally installed at startup (main.tsx, when idle); here too in case that has not run yet.
  useEffect(() => installConsoleCapture(), []);
  useEffect(() => {
    document.documentElement.classList.toggle("grid-borders", gridBorders);
  }, [gridBorders]);

  return (
    <>
      {open && (
        <div id="developer-panel" className="developer-panel" role="group" aria-label="Developer tools">
          <a href={paths.admin} target="_blank" rel="noopener noreferrer" className="button button-ghost">
            Admin panel
          </a>
          <label className="switch">
            <input type="checkbox" checked={gridBorders} onChange={(e) => setGridBorders(e.target.checked)} />
            Grid borders
          </label>
          <label className="switch">
            <input type="checkbox" checked={showConsole} onChange={(e) => setShowConsole(e.target.checked)} />
            Show console
          </label>
          <label className="switch">
            <input type="checkbox" checked={showDimensions} onChange={(e) => setShowDimensions(e.target.checked)} />
            Show window dimensions
          </label>
          {showConsole && <ConsolePanel />}
        </div>
      )}
      {showDimensions && <WindowDimensions />}
    </>
  );
}
