import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";
import type { PrivateUser } from "@contract/users";
import { setAuthHandlers } from "./api-client";
import { readJson, readStorage, STORAGE_KEYS, writeStorage } from "./storage";

/**
 * The signed-in session (product spec, section 4): it exists only when both a user and a token
 * are present, kept under `auth_token` and `user_data`.
 */
export interface Session {
  user: PrivateUser;
  token: string;
}

interface SessionValue {
  session: Session | null;
  signIn: (token: string, user: PrivateUser) => void;
  signOut: () => void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function readStoredSession(): Session | null {
  const token = readStorage(STORAGE_KEYS.authToken);
  const user = readJson<PrivateUser>(STORAGE_KEYS.userData);
  return token && user && typeof user.id === "string" ? { token, user } : null;
}

export function SessionProvider({ children, initial }: { children: ReactNode; initial?: Session | null }) {
  const [session, setSession] = useState<Session | null>(() =>
    initial !== undefined ? initial : readStoredSession(),
  );

  const signIn = useCallback((token: string, user: PrivateUser) => {
    writeStorage(STORAGE_KEYS.authToken, token);
    writeStorage(STORAGE_KEYS.userData, JSON.stringify(user));
    setSession({ token, user });
  }, []);

  const signOut = useCallback(() => {
    writeStorage(STORAGE_KEYS.authToken, null);
    writeStorage(STORAGE_KEYS.userData, null);
    setSession(null);
  }, []);

  setAuthHandlers({
    getToken: () => session?.token ?? null,
    refresh: async () => {
      // Refresh tokens arrive with accounts; until then a 401 ends the session.
      signOut();
      return null;
    },
  });

  const value = useMemo(() => ({ session, signIn, signOut }), [session, signIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession outside SessionProvider");
  return value;
}
