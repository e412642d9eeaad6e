/**
 * Channel: the filing channel of an insurance form (spec section 3 "Enumeration: Online = '1',
 * Outline = '2'"). Online = the form was uploaded by the business in this console; Outline = the
 * form was filed offline by the platform's service staff on the business's behalf. The decision and
 * its reasons are in docs/decisions.md.
 */
export enum Channel {
  Online = '1',
  Outline = '2',
}

export const CHANNEL_LABELS: Record<Channel, string> = {
  [Channel.Online]: '线上',
  [Channel.Outline]: '线下',
};

/** Label for a channel code; undefined for a value that is not a Channel. */
export function channelLabel(v: string): string | undefined {
  return (CHANNEL_LABELS as Record<string, string>)[v];
}
