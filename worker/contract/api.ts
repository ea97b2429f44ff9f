/** Response shapes shared by the worker and the SPA. */
/** The one error shape of the API contract. */
export interface ApiErrorBody {
  detail: string;
  errors?: { path: string; message: string }[];
  retry_after?: number;
  /** A machine-readable reason where the client must react (e.g. "email_not_verified"). */
  code?: string;
}

export interface University {
  id: number;
  name: string;
  abbreviation: string;
}

export interface ListResponse<T> {
  data: T[];
}

export interface HealthResponse {
  status: "ok" | "error";
  database: "ok" | "error";
}

export interface VersionResponse {
  version: string;
}

export interface DevEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  created_at: string;
}

/** GET dev/emails. */
export interface DevEmailsResponse {
  data: DevEmail[];
}
