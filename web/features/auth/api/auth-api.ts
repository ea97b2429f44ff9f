import { useMutation, useQuery } from "@tanstack/react-query";
import type { AuthConfigResponse, AuthResponse, GoogleLinkRequiredResponse, MessageResponse, RegisterInput, RegisterResponse } from "@contract/auth";
import { ApiError, apiRequest } from "../../../lib/api-client";
import { authStore } from "../../../lib/auth-store";

export const login = (email: string, password: string) =>
  apiRequest<AuthResponse>("auth/login", { method: "POST", body: { email, password }, auth: false });

export const register = (input: RegisterInput) =>
  apiRequest<RegisterResponse>("auth/register", { method: "POST", body: input, auth: false });

export const sendVerificationCode = (email: string) =>
  apiRequest<MessageResponse>("auth/send-verification-code", { method: "POST", body: { email }, auth: false });

export const verifyEmail = (email: string, code: string) =>
  apiRequest<AuthResponse>("auth/verify-email", { method: "POST", body: { email, code }, auth: false });

export const forgotPassword = (email: string) =>
  apiRequest<MessageResponse>("auth/forgot-password", { method: "POST", body: { email }, auth: false });

export const resetPassword = (email: string, code: string, newPassword: string) =>
  apiRequest<MessageResponse>("auth/reset-password", {
    method: "POST",
    body: { email, code, new_password: newPassword },
    auth: false,
  });

export const googleLogin = (token: string) =>
  apiRequest<AuthResponse>("auth/google-login", { method: "POST", body: { token }, auth: false });

/** The second step of a Google sign-in that answered 409 link_required: the existing account's password or an emailed code. */
export const googleLink = (token: string, proof: { password: string } | { code: string }) =>
  apiRequest<AuthResponse>("auth/google-link", { method: "POST", body: { token, ...proof }, auth: false });

/** Sign-in by emailed code: the way in when password sign-in is throttled (and the code for a Google link). */
export const sendSignInCode = (email: string) =>
  apiRequest<MessageResponse>("auth/send-sign-in-code", { method: "POST", body: { email }, auth: false });

export const loginWithCode = (email: string, code: string) =>
  apiRequest<AuthResponse>("auth/login-with-code", { method: "POST", body: { email, code }, auth: false });

/** The 409 of google-login asking for proof of the existing account (no session yet). */
export const isGoogleLinkRequired = (err: unknown): err is ApiError & { body: GoogleLinkRequiredResponse } =>
  err instanceof ApiError && err.status === 409 && (err.body as Partial<GoogleLinkRequiredResponse> | null)?.link_required === true;

export function useAuthConfig() {
  return useQuery({
    queryKey: ["auth-config"],
    queryFn: () => apiRequest<AuthConfigResponse>("auth/config", { auth: false }),
    staleTime: Infinity,
  });
}

/* Writes: the ones that answer a session sign the user in. */

export const useLogin = () =>
  useMutation({ mutationFn: ({ email, password }: { email: string; password: string }) => login(email, password), onSuccess: (auth) => authStore.signIn(auth) });

export const useRegister = () => useMutation({ mutationFn: register });

export const useVerifyEmail = () =>
  useMutation({ mutationFn: ({ email, code }: { email: string; code: string }) => verifyEmail(email, code), onSuccess: (auth) => authStore.signIn(auth) });

export const useSendVerificationCode = () => useMutation({ mutationFn: sendVerificationCode });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });

export const useResetPassword = () =>
  useMutation({ mutationFn: ({ email, code, password }: { email: string; code: string; password: string }) => resetPassword(email, code, password) });

export const useGoogleLogin = () => useMutation({ mutationFn: googleLogin, onSuccess: (auth) => authStore.signIn(auth) });

export const useGoogleLink = () =>
  useMutation({
    mutationFn: ({ token, proof }: { token: string; proof: { password: string } | { code: string } }) => googleLink(token, proof),
    onSuccess: (auth) => authStore.signIn(auth),
  });

export const useSendSignInCode = () => useMutation({ mutationFn: sendSignInCode });

export const useLoginWithCode = () =>
  useMutation({ mutationFn: ({ email, code }: { email: string; code: string }) => loginWithCode(email, code), onSuccess: (auth) => authStore.signIn(auth) });
