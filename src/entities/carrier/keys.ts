/** Query keys of the carrier entity (data about one carrier that any feature may read). */
export const carrierKeys = {
  all: ['carrier'] as const,
  /** the lite profile of one DOT (the preview, the network's name look-ups) */
  lite: (dot: string) => [...carrierKeys.all, 'lite', dot] as const,
  /** the names the proxy holds for these DOTs */
  heldNames: (dots: readonly string[]) => [...carrierKeys.all, 'held-names', dots] as const,
};
