import { useQuery } from "@tanstack/react-query";
import type { AuthConfigResponse, AuthResponse, RegisterInput } from "@contract/auth";
import { apiRequest } from "../../../lib/api-client";

export const login = (email: string, password: string) =>
  apiRequest<AuthResponse>("auth/login", { method: "POST", body: { email, password }, auth: false });

export const register = (input: RegisterInput) =>
  apiRequest<{ message: string; user_id: string }>("auth/register", { method: "POST", body: input, auth: false });

export const sendVerificationCode = (email: string) =>
  apiRequest<{ message: string }>("auth/send-verification-code", { method: "POST", body: { email }, auth: false });

export const verifyEmail = (email: string, code: string) =>
  apiRequest<AuthResponse>("auth/verify-email", { method: "POST", body: { email, code }, auth: false });

export const forgotPassword = (email: string) =>
  apiRequest<{ message: string }>("auth/forgot-password", { method: "POST", body: { email }, auth: false });

export const resetPassword = (email: string, code: string, newPassword: string) =>
  apiRequest<{ message: string }>("auth/reset-password", {
    method: "POST",
    body: { email, code, new_password: newPassword },
    auth: false,
  });

export const googleLogin = (token: string) =>
  apiRequest<AuthResponse>("auth/google-login", { method: "POST", body: { token }, auth: false });

export function useAuthConfig() {
  return useQuery({
    queryKey: ["auth-config"],
    queryFn: () => apiRequest<AuthConfigResponse>("auth/config", { auth: false }),
    staleTime: Infinity,
  });
}
