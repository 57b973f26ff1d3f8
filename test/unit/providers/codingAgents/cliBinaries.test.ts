import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	codexFallback,
	codexOnPath,
	onPath,
} from '../../../../src/core/providers/codingAgents/cliBinaries.js';

const repo = join(__dirname, '..', '..', '..', '..');

/** An executable script `name` in a fresh folder; returns the folder. */
function executable(name: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'massgen-bin-'));
	writeFileSync(join(dir, name), '#!/bin/sh\necho hi\n');
	chmodSync(join(dir, name), 0o755);
	return dir;
}

/**
 * Issue 14: with no `cli_path`, a coding agent's CLI is looked up on the `PATH` the run gets (the
 * terminal's, or the extension host's). Links are resolved, because installers link the CLI from a
 * bin folder and the CLI's sandbox binds the folder the binary is really in.
 */
describe.runIf(process.platform !== 'win32')('coding agents CLIs on PATH', () => {
	it('onPath: the first PATH folder with an executable of that name, its links resolved', () => {
		const real = executable('claude');
		const links = mkdtempSync(join(tmpdir(), 'massgen-bin-'));
		symlinkSync(join(real, 'claude'), join(links, 'claude'));
		const plain = mkdtempSync(join(tmpdir(), 'massgen-bin-'));
		writeFileSync(join(plain, 'claude'), 'not executable');
		expect(onPath('claude', [plain, links, real].join(delimiter))).toBe(realpathSync(join(real, 'claude')));
		expect(onPath('claude', plain)).toBeUndefined();
		expect(onPath('claude', undefined)).toBeUndefined();
	});

	it("codexOnPath: npm's codex wrapper becomes its package's native binary (the SDK's choice), which runs", () => {
		// The checkout's own npm install: node_modules/.bin/codex → @openai/codex/bin/codex.js.
		const found = codexOnPath(join(repo, 'node_modules', '.bin'));
		expect(found).toBeDefined();
		const vendor = join(
			realpathSync(join(repo, 'node_modules')),
			'@openai',
			`codex-${process.platform}-${process.arch}`,
		);
		expect(found!.path.startsWith(`${vendor}/vendor/`)).toBe(true);
		expect(found!.path).toMatch(/\/(bin|codex)\/codex$/);
		expect(found!.pathDirs.every((dir) => dir.startsWith(`${vendor}/vendor/`))).toBe(true);
		expect(execFileSync(found!.path, ['--version'], { encoding: 'utf8' })).toMatch(/^codex-cli 0\.163\.0/);
	});

	it('codexOnPath: any other codex is the binary itself; none, or a wrapper without its platform package, is undefined', () => {
		const native = executable('codex');
		expect(codexOnPath(native)).toEqual({ path: realpathSync(join(native, 'codex')), pathDirs: [] });
		expect(codexOnPath(mkdtempSync(join(tmpdir(), 'massgen-bin-')))).toBeUndefined();
		// npm's layout without the optional platform package (installed with --omit=optional).
		const prefix = mkdtempSync(join(tmpdir(), 'massgen-npm-'));
		const bin = join(prefix, 'node_modules', '@openai', 'codex', 'bin');
		mkdirSync(bin, { recursive: true });
		writeFileSync(join(bin, 'codex.js'), '#!/usr/bin/env node\n');
		chmodSync(join(bin, 'codex.js'), 0o755);
		mkdirSync(join(prefix, 'bin'));
		symlinkSync(join(bin, 'codex.js'), join(prefix, 'bin', 'codex'));
		expect(codexOnPath(join(prefix, 'bin'))).toBeUndefined();
	});

	it("codexFallback: the SDK's own binary where it finds one, else the codex on PATH", () => {
		const native = executable('codex');
		expect(codexFallback(() => ({}), native)).toBeUndefined();
		const unlocatable = () => {
			throw new Error('Unable to locate Codex CLI binaries.');
		};
		expect(codexFallback(unlocatable, native)).toBe(realpathSync(join(native, 'codex')));
		expect(codexFallback(unlocatable, mkdtempSync(join(tmpdir(), 'massgen-bin-')))).toBeUndefined();
	});
});
