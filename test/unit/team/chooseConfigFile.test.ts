import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseConfigFile } from '../../../src/core/team/chooseConfigFile.js';

const root = '/work/project';
const shipped = '/ext/configs';
const inWorkspace = join(root, '.massgen', 'config.yaml');
const existing =
	(...files: string[]) =>
	async (path: string) =>
		files.includes(path);

describe('chooseConfigFile: the one "which file" rule of both shells', () => {
	it('the given file, else the workspace config, else the shipped default team', async () => {
		expect(await chooseConfigFile(root, shipped, 'team.yaml', { exists: existing(inWorkspace) })).toEqual({
			file: join(process.cwd(), 'team.yaml'),
			kind: 'explicit',
		});
		expect(await chooseConfigFile(root, shipped, undefined, { exists: existing(inWorkspace) })).toEqual({
			file: inWorkspace,
			kind: 'workspace',
		});
		expect(await chooseConfigFile(root, shipped, undefined, { exists: existing() })).toEqual({
			file: join(shipped, 'default.yaml'),
			kind: 'default',
		});
	});

	it('untrusted: the workspace config is skipped, and the choice says so', async () => {
		const choice = await chooseConfigFile(root, shipped, undefined, {
			trusted: false,
			exists: existing(inWorkspace),
		});
		expect(choice).toEqual({ file: join(shipped, 'default.yaml'), kind: 'default', skippedUntrusted: true });
	});
});
