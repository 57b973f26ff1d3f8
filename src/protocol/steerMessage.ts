/**
 * The longest message the panel sends the team (the core's limit): the message box stops there and
 * the host's schema refuses more.
 */
export const MAX_STEER_CHARS = 8_000;
