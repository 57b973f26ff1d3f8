/**
 * Picks the progress display for stderr (docs/cli.md): the live table on a terminal, plain lines
 * for pipes, files, CI and `TERM=dumb`.
 */
import { PlainDisplay } from './plainDisplay.js';
import type { DisplayStream, RunDisplay } from './runDisplay.js';
import { TtyDisplay, type TtyDisplayOptions } from './ttyDisplay.js';

export function createDisplay(
	stream: DisplayStream,
	options: TtyDisplayOptions & { readonly env?: NodeJS.ProcessEnv } = {},
): RunDisplay {
	const env = options.env ?? process.env;
	const live = stream.isTTY === true && env['TERM'] !== 'dumb';
	return live ? new TtyDisplay(stream, options) : new PlainDisplay(stream);
}
