import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const full = join(dir, name);
		if (statSync(full).isDirectory()) return sourceFiles(full);
		return /\.(ts|tsx|js|mjs)$/.test(name) ? [full] : [];
	});
}

/** Matches static imports, re-exports, dynamic imports and require() of a module specifier. */
const importPattern = /(?:from\s*|import\s*\(\s*|require\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

function importsOf(file: string): string[] {
	return [...readFileSync(file, 'utf8').matchAll(importPattern)].map((m) => m[1]!);
}

describe('layering', () => {
	for (const layer of ['src/core', 'src/protocol']) {
		it(`${layer} never imports vscode or editor glue`, () => {
			const offenders = sourceFiles(join(repo, layer)).flatMap((file) =>
				importsOf(file)
					.filter((spec) => spec === 'vscode' || /(^|\/)vscode\//.test(spec) || spec.includes('/webview'))
					.map((spec) => `${relative(repo, file)} imports ${spec}`),
			);
			expect(offenders).toEqual([]);
		});
	}

	it('the import scanner sees a vscode import (guards the guard)', () => {
		expect([...`import * as vscode from 'vscode';`.matchAll(importPattern)].map((m) => m[1])).toEqual([
			'vscode',
		]);
		expect([...`const v = require("vscode")`.matchAll(importPattern)].map((m) => m[1])).toEqual(['vscode']);
	});
});
