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
// SIGUSR1 is "finish now" while a run coordinates (`steer/runSteering.ts` listens then). Without a
// listener Node answers it by opening its inspector on 127.0.0.1:9229, where any local user can
// run code as this process (and read its keys): so it is caught for the process's whole life, and
// outside a run it is only answered (test/integration/cli/finishSignalIdle.test.ts).
process.on('SIGUSR1', () => {
	if (process.listenerCount('SIGUSR1') === 1) {
		process.stderr.write('massgen: SIGUSR1: no run is coordinating: nothing to finish\n');
	}
});
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
