import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { Avatar, formatBadgeCount, initialsOf } from "../../../web/components/ui/avatar";
import { Dialog } from "../../../web/components/ui/dialog";
import { DropdownMenu } from "../../../web/components/ui/dropdown-menu";
import { TextAreaField } from "../../../web/components/ui/field";
import { Tabs } from "../../../web/components/ui/tabs";
import { clampToastDuration, ToastProvider, useToast } from "../../../web/components/ui/toast";
import { Tooltip } from "../../../web/components/ui/tooltip";

describe("Avatar", () => {
  it("caps the unread badge at 99+ and hides it at 0", () => {
    expect(formatBadgeCount(0)).toBeNull();
    expect(formatBadgeCount(7)).toBe("7");
    expect(formatBadgeCount(99)).toBe("99");
    expect(formatBadgeCount(100)).toBe("99+");
    const { rerender } = render(<Avatar firstName="Maya" lastName="Lopez" badge={250} />);
    expect(screen.getByText("99+ unread messages")).toHaveClass("visually-hidden");
    expect(screen.getByText("99+")).toHaveAttribute("aria-hidden", "true");
    rerender(<Avatar firstName="Maya" lastName="Lopez" badge={0} />);
    expect(screen.queryByText(/unread messages/)).toBeNull();
  });

  it("shows the image, else initials, else a fallback letter", () => {
    expect(initialsOf("maya", "lopez")).toBe("ML");
    expect(initialsOf("", null)).toBe("?");
    const { container, rerender } = render(<Avatar src="/a.jpg" firstName="Maya" lastName="Lopez" />);
    expect(container.querySelector("img")).toHaveAttribute("src", "/a.jpg");
    rerender(<Avatar firstName="Maya" lastName="Lopez" />);
    expect(container).toHaveTextContent("ML");
  });
});

function DialogHarness() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button onClick={() => setOpen(true)}>Open</button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Confirm" description="Sure?">
        <button>First</button>
        <button>Last</button>
      </Dialog>
    </>
  );
}

describe("Dialog", () => {
  it("moves focus in, traps Tab, closes on Escape and gives focus back", async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    const opener = screen.getByRole("button", { name: "Open" });
    await user.click(opener);
    const dialog = screen.getByRole("dialog", { name: "Confirm" });
    expect(dialog).toHaveAttribute("aria-modal", "true");
    expect(dialog).toHaveAccessibleDescription("Sure?");
    expect(within(dialog).getByRole("button", { name: "Close" })).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Last" })).toHaveFocus();
    await user.tab();
    expect(within(dialog).getByRole("button", { name: "Close" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(opener).toHaveFocus();
  });
});

describe("DropdownMenu", () => {
  it("opens with ArrowDown, moves with arrows, wraps, and Escape returns focus", async () => {
    const user = userEvent.setup();
    const onProfile = vi.fn();
    render(
      <DropdownMenu
        triggerLabel="Account menu"
        trigger={<span aria-hidden="true">Me</span>}
        items={[
          { label: "My Profile", onSelect: onProfile },
          { label: "Favorites", onSelect: () => {} },
          { label: "Sign Out", onSelect: () => {} },
        ]}
      />,
    );
    const button = screen.getByRole("button", { name: "Account menu" });
    expect(button).toHaveAttribute("aria-expanded", "false");
    button.focus();
    await user.keyboard("{ArrowDown}");
    expect(button).toHaveAttribute("aria-expanded", "true");
    expect(screen.getByRole("menuitem", { name: "My Profile" })).toHaveFocus();
    await user.keyboard("{ArrowUp}");
    expect(screen.getByRole("menuitem", { name: "Sign Out" })).toHaveFocus();
    await user.keyboard("{Home}");
    expect(screen.getByRole("menuitem", { name: "My Profile" })).toHaveFocus();
    await user.keyboard("{Escape}");
    expect(screen.queryByRole("menu")).toBeNull();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(screen.getByRole("menuitem", { name: "My Profile" }));
    expect(onProfile).toHaveBeenCalledOnce();
    expect(screen.queryByRole("menu")).toBeNull();
  });
});

function TabsHarness() {
  const [value, setValue] = useState("users");
  return (
    <Tabs
      label="Sections"
      value={value}
      onChange={setValue}
      tabs={[
        { id: "users", label: "Users", content: <p>users panel</p> },
        { id: "pending", label: "Pending", content: <p>pending panel</p> },
        { id: "unverified", label: "Unverified", content: <p>unverified panel</p> },
      ]}
    />
  );
}

describe("Tabs", () => {
  it("selects with arrow keys and labels the panel by its tab", async () => {
    const user = userEvent.setup();
    render(<TabsHarness />);
    const users = screen.getByRole("tab", { name: "Users" });
    expect(users).toHaveAttribute("aria-selected", "true");
    users.focus();
    await user.keyboard("{ArrowRight}");
    const pending = screen.getByRole("tab", { name: "Pending" });
    expect(pending).toHaveFocus();
    expect(pending).toHaveAttribute("aria-selected", "true");
    expect(screen.getByRole("tabpanel", { name: "Pending" })).toHaveTextContent("pending panel");
    await user.keyboard("{ArrowLeft}{ArrowLeft}");
    expect(screen.getByRole("tab", { name: "Unverified" })).toHaveAttribute("aria-selected", "true");
    expect(users).toHaveAttribute("tabindex", "-1");
  });
});

describe("Tooltip", () => {
  it("describes its trigger, appears on focus and hides on Escape", async () => {
    const user = userEvent.setup();
    render(
      <Tooltip content="Only approved listings can be promoted">
        <button>Promote</button>
      </Tooltip>,
    );
    const button = screen.getByRole("button", { name: "Promote" });
    expect(button).toHaveAccessibleDescription("Only approved listings can be promoted");
    await user.tab();
    expect(screen.getByRole("tooltip", { hidden: true })).toHaveClass("tooltip-visible");
    await user.keyboard("{Escape}");
    expect(screen.getByRole("tooltip", { hidden: true })).not.toHaveClass("tooltip-visible");
  });
});

function ToastHarness({ durationMs }: { durationMs?: number }) {
  const toast = useToast();
  return <button onClick={() => toast.show("Added to favorites", { durationMs, kind: "success" })}>Go</button>;
}

function DismissHarness() {
  const toast = useToast();
  return (
    <button
      onClick={() => {
        const first = toast.show("Please log in to save searches", { durationMs: 5000 });
        toast.show("Still here", { durationMs: 5000 });
        toast.dismiss(first);
      }}
    >
      Go
    </button>
  );
}

describe("Toast", () => {
  it("keeps durations within 2-5 s and disappears after its time", async () => {
    expect(clampToastDuration(500)).toBe(2000);
    expect(clampToastDuration(3000)).toBe(3000);
    expect(clampToastDuration(9000)).toBe(5000);
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <ToastHarness durationMs={3000} />
      </ToastProvider>,
    );
    act(() => screen.getByRole("button", { name: "Go" }).click());
    expect(screen.getByRole("status")).toHaveTextContent("Added to favorites");
    act(() => vi.advanceTimersByTime(2900));
    expect(screen.getByRole("status")).toHaveTextContent("Added to favorites");
    act(() => vi.advanceTimersByTime(200));
    expect(screen.getByRole("status")).not.toHaveTextContent("Added to favorites");
    vi.useRealTimers();
  });

  it("leaves no timer behind when the page goes away with a toast still shown", () => {
    vi.useFakeTimers();
    try {
      const { unmount } = render(
        <ToastProvider>
          <ToastHarness durationMs={3000} />
        </ToastProvider>,
      );
      act(() => screen.getByRole("button", { name: "Go" }).click());
      expect(vi.getTimerCount()).toBe(1);
      unmount();
      // A timer left running would set state on the unmounted tree (it once fired after a test file's
      // page was torn down: "window is not defined").
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("show returns an id that dismiss takes away before its time, leaving the others", () => {
    vi.useFakeTimers();
    try {
      render(
        <ToastProvider>
          <DismissHarness />
        </ToastProvider>,
      );
      act(() => screen.getByRole("button", { name: "Go" }).click());
      const region = screen.getByRole("status");
      expect(region).toHaveAttribute("aria-live", "polite");
      expect(region).not.toHaveTextContent("Please log in to save searches");
      expect(region).toHaveTextContent("Still here");
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("TextAreaField: a limited field is never cut silently", () => {
  function Notes() {
    const [value, setValue] = useState("");
    return <TextAreaField label="Notes (optional)" limit={10} value={value} onChange={(e) => setValue(e.target.value)} />;
  }

  it("counts from 80 % of the limit, politely, and flags a longer paste until shortened", async () => {
    const user = userEvent.setup();
    render(<Notes />);
    const box = screen.getByLabelText("Notes (optional)");
    expect(box).not.toHaveAttribute("maxLength");
    await user.type(box, "1234567");
    expect(screen.queryByText(/\/10/)).toBeNull();
    await user.type(box, "8");
    const counter = screen.getByText("8/10", { exact: false });
    expect(counter).toHaveAttribute("aria-live", "polite");
    expect(counter).toHaveTextContent("8/10 characters");
    expect(box.getAttribute("aria-describedby")).toContain(counter.id);
    await user.paste("9abcdef");
    expect(box).toHaveValue("123456789abcdef");
    // The label's "(optional)" is not part of the field's name in the message.
    expect(screen.getByRole("alert")).toHaveTextContent("Notes is 15 characters; the limit is 10. Shorten it to continue.");
    expect(box).toHaveAttribute("aria-invalid", "true");
    await user.type(box, "{Backspace}{Backspace}{Backspace}{Backspace}{Backspace}");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(box).not.toHaveAttribute("aria-invalid");
    expect(screen.getByText("10/10", { exact: false })).toBeInTheDocument();
  });
});
