/** Joins class names, skipping empty ones: the kit's variants plus a caller's additions. */
export function cx(...names: (string | false | null | undefined)[]): string {
  return names.filter(Boolean).join(" ");
}
