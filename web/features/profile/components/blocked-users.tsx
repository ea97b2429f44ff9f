import { Avatar } from "../../../components/ui/avatar";
import { Loadable } from "../../../components/ui/loadable";
import { useToast } from "../../../components/ui/toast";
import { errorMessage } from "../../../lib/api-client";
import { useBlockedUsers, useUnblockUser } from "../../../lib/reports-blocks-api";

/** The profile's "Blocked users" (docs/decisions/015): whom the user blocked, each with Unblock. */
export function BlockedUsers() {
  const query = useBlockedUsers();
  const unblock = useUnblockUser();
  const toast = useToast();
  return (
    <section className="panel stack-sm" aria-labelledby="blocked-heading">
      <h2 id="blocked-heading">Blocked users</h2>
      <Loadable query={query} label="blocked users">
        {(blocked) =>
          blocked.length === 0 ? (
            <p className="muted">You have not blocked anyone.</p>
          ) : (
            <ul className="blocked-list">
              {blocked.map((b) => {
                const [first = "", ...rest] = b.name.split(" ");
                const busy = unblock.isPending && unblock.variables === b.id;
                return (
                  <li key={b.id} className="blocked-row">
                    <Avatar src={b.avatar_url} firstName={first} lastName={rest.join(" ")} size={32} />
                    <span className="blocked-name">{b.name}</span>
                    <button
                      type="button"
                      className="button button-ghost"
                      disabled={busy}
                      aria-label={`Unblock ${b.name}`}
                      onClick={() =>
                        unblock.mutate(b.id, {
                          onSuccess: () => toast.show(`You unblocked ${b.name}.`, { kind: "success" }),
                          onError: (err) => toast.show(errorMessage(err, "Could not unblock. Please try again."), { kind: "error", durationMs: 3000 }),
                        })
                      }
                    >
                      {busy ? "Unblocking…" : "Unblock"}
                    </button>
                  </li>
                );
              })}
            </ul>
          )
        }
      </Loadable>
    </section>
  );
}
