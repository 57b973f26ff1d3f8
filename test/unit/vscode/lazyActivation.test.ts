import { join } from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');

/**
 * DESIGN §7: activation loads no SDK. esbuild turns modules reached only through `import()` into
 * lazily initialised ones, so this walks the bundle's *static* import graph from the entry point
 * and checks that no SDK (nor the config schema or the orchestrator) is on it.
 */
describe('activation is lazy', () => {
	it('reaches the SDKs, zod, yaml and the orchestrator only through dynamic imports', async () => {
		const result = await build({
			entryPoints: [join(repo, 'src', 'extension.ts')],
			bundle: true,
			platform: 'node',
			format: 'cjs',
			target: 'node20',
			external: ['vscode'],
			write: false,
			metafile: true,
			absWorkingDir: repo,
			logLevel: 'silent',
		});
		const inputs = result.metafile.inputs;
		const reached = new Set<string>();
		const queue = ['src/extension.ts'];
		while (queue.length) {
			const file = queue.pop()!;
			if (reached.has(file)) continue;
			reached.add(file);
			for (const edge of inputs[file]?.imports ?? []) if (edge.kind !== 'dynamic-import' && !edge.external) queue.push(edge.path);
		}
		const eager = [...reached];
		expect(eager.length).toBeGreaterThan(10);
		const forbidden = [/node_modules\/openai\//, /node_modules\/@anthropic-ai\//, /node_modules\/@google\/genai\//, /node_modules\/zod\//, /node_modules\/yaml\//, /^src\/core\/orchestrator\//, /^src\/core\/providers\//, /^src\/core\/config\/schema/];
		expect(eager.filter((file) => forbidden.some((pattern) => pattern.test(file)))).toEqual([]);
		// …while the bundle does contain them, behind import().
		const all = Object.keys(inputs);
		expect(all.some((file) => /node_modules\/openai\//.test(file))).toBe(true);
		expect(all).toContain('src/core/orchestrator/orchestrator.ts');
	});
});
