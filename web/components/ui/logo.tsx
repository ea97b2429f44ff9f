/** The CampusNest mark: a house roof over an open book. */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <rect width="32" height="32" rx="8" fill="var(--brand)" />
      <path d="M6 15 16 7l10 8" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M9 14v10h14V14" fill="none" stroke="#fff" strokeWidth="2.6" strokeLinejoin="round" />
      <path d="M13.5 24v-5h5v5" fill="#fff" />
    </svg>
  );
}
