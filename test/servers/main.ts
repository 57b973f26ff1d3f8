import { writeFile } from 'node:fs/promises';
import { startLoopbackTeam } from './loopbackTeam.js';

/**
 * `npx tsx test/servers/main.ts [config-out.yaml]`: starts the four auto-agent loopback servers,
 * prints (or writes) a team config pointed at them, and serves until SIGINT/SIGTERM.
 * `LOOPBACK_DELAY_MS` sets the pause between streamed events (default 5).
 */
async function main(): Promise<void> {
	const team = await startLoopbackTeam({ delayMs: Number(process.env['LOOPBACK_DELAY_MS'] ?? 5) });
	const yaml = team.configYaml();
	const out = process.argv[2];
	if (out) {
		await writeFile(out, yaml);
		process.stderr.write(`loopback team config written to ${out}\n`);
	} else {
		process.stdout.write(yaml);
	}
	for (const [protocol, server] of Object.entries(team.servers)) {
		process.stderr.write(`${protocol}: ${server.baseUrl}\n`);
	}
	const stop = () => void team.close().then(() => process.exit(0));
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
}

void main();
