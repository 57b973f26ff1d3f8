import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The `configs/` folder shipped beside the bundle (`dist/../configs`), found by walking up so the
 * same code works from `src/cli` under tests.
 */
export function shippedConfigsDir(from: string = __dirname): string {
	let dir = from;
	for (let i = 0; i < 5; i++) {
		if (existsSync(join(dir, 'configs', 'default.yaml'))) return join(dir, 'configs');
		dir = dirname(dir);
	}
	throw new Error(`shipped configs/ not found above ${from}`);
}
