import { describe, expect, it } from 'vitest';
import { type Engine, engineLoader } from '../../../src/vscode/run/loadEngine';

describe('engineLoader: one run engine for the runs and the config diagnostics', () => {
	it('loads once for every caller, logs the load, and loads again after a failed load', async () => {
		const logged: string[] = [];
		const engine = {} as Engine;
		let loads = 0;
		let fail = true;
		const load = engineLoader(
			async () => {
				loads += 1;
				if (fail) throw new Error('dist/engine.js is missing');
				return engine;
			},
			{ info: (message) => logged.push(message) },
		);
		await expect(load()).rejects.toThrow('dist/engine.js is missing');
		fail = false;
		const [first, second] = await Promise.all([load(), load()]);
		expect(first).toBe(engine);
		expect(second).toBe(engine);
		expect(await load()).toBe(engine);
		expect(loads).toBe(2);
		expect(logged).toHaveLength(1);
		expect(logged[0]).toMatch(/^run engine loaded in \d+\.\d ms$/);
	});
});
