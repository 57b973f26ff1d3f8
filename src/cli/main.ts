import { join } from 'node:path';
import { version } from '../../package.json';
import { loadBundle } from './bundleLoader.js';

/**
 * The `massgen` executable, `dist/cli.js`: small, so that `massgen --version` costs little more
 * than Node's own start. The commands are `dist/cli-commands.js` (`commands.ts`; package.json
 * `build:cli`). `--version` alone needs none of them; with other arguments it is parsed with
 * them there, as any command line is.
 */
const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
	process.stdout.write(`${version}\n`);
} else {
	const commands = loadBundle(
		join(__dirname, 'cli-commands.js'),
		process.env,
	) as typeof import('./commands.js');
	void commands.runCli(argv).then((code) => {
		process.exitCode = code;
	});
}
