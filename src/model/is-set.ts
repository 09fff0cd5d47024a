/** `null` is "not set" in every dialect's spec. */
export const isSet = (value: unknown): boolean => value !== null && value !== undefined;
