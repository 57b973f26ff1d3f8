import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandIds, contextKeys, viewIds, viewTypes } from '../../../src/vscode/common/commandIds';

const repo = join(__dirname, '..', '..', '..');
const read = (...path: string[]) => readFileSync(join(repo, ...path));

interface Manifest {
	engines: { vscode: string };
	icon?: string;
	galleryBanner?: { color?: string; theme?: string };
	categories?: string[];
	keywords?: string[];
	enabledApiProposals?: string[];
	activationEvents?: string[];
	devDependencies: Record<string, string>;
	contributes: {
		commands: { command: string }[];
		views: Record<string, { id: string }[]>;
		viewsContainers: Record<string, { id: string }[]>;
		walkthroughs?: { id: string; steps: { id: string; completionEvents?: string[]; media: unknown }[] }[];
		[key: string]: unknown;
	};
	scripts: Record<string, string>;
}
const manifest = JSON.parse(read('package.json').toString('utf8')) as Manifest;
const commands = new Set<string>(Object.values(commandIds));
const views = new Set(
	Object.values(manifest.contributes.views).flatMap((list) => list.map((view) => view.id)),
);
const containers = Object.values(manifest.contributes.viewsContainers).flatMap((list) =>
	list.map((c) => c.id),
);

const minor = (version: string) => /(\d+)\.(\d+)/.exec(version)?.slice(1, 3).join('.');

/** Every `command:<id>` link in the manifest's strings and in both nls bundles. */
function commandLinks(): string[] {
	const texts = [read('package.json'), read('package.nls.json'), read('package.nls.de.json')].map(String);
	return [...new Set(texts.flatMap((text) => [...text.matchAll(/\(command:([\w.-]+)/g)].map((m) => m[1])))];
}

describe('package.json against the code and VS Code', () => {
	it('engines.vscode is the @types/vscode version the code compiles against (no API beyond it)', () => {
		const types = JSON.parse(read('node_modules', '@types', 'vscode', 'package.json').toString()) as {
			version: string;
		};
		expect(manifest.engines.vscode).toMatch(/^\^\d+\.\d+\.\d+$/);
		expect(minor(manifest.engines.vscode)).toBe(minor(types.version));
		expect(manifest.devDependencies['@types/vscode']).toBe(types.version);
	});

	it('uses no proposed API', () => {
		expect(manifest.enabledApiProposals).toBeUndefined();
	});

	it('every activation event is a valid kind naming something the extension has', () => {
		for (const event of manifest.activationEvents ?? []) {
			const [kind, id] = event.split(/:(.*)/s);
			if (kind === 'onWebviewPanel') expect(Object.values(viewTypes), event).toContain(id);
			else if (kind === 'onView') expect(views.has(id), event).toBe(true);
			else if (kind === 'onCommand') expect(commands.has(id), event).toBe(true);
			else expect(['onStartupFinished', 'onLanguage', 'workspaceContains', 'onUri'], event).toContain(kind);
		}
	});

	it('every command link names a registered command or a VS Code one that exists', () => {
		const builtIn = new Set([
			'workbench.extensions.search',
			...containers.map((id) => `workbench.view.extension.${id}`),
		]);
		for (const id of commandLinks()) {
			expect(commands.has(id) || builtIn.has(id), id).toBe(true);
		}
	});

	it('walkthrough steps complete on outcomes the code sets and views that exist, with SVG media that are present', () => {
		const [walkthrough] = manifest.contributes.walkthroughs ?? [];
		expect(walkthrough?.steps.map((step) => step.id)).toEqual([
			'setupModel',
			'buildTeam',
			'askTeam',
			'reviewChanges',
			'openViews',
		]);
		// A step is done when its outcome is there (a key stored, a team written, a run completed, a
		// change accepted), never when a button was pressed: no `onCommand`.
		const outcomes = new Set<string>(Object.values(contextKeys));
		for (const step of walkthrough.steps) {
			for (const event of step.completionEvents ?? []) {
				const [kind, id] = event.split(/:(.*)/s);
				if (kind === 'onView') expect(views.has(id), event).toBe(true);
				else expect(kind === 'onContext' && outcomes.has(id), event).toBe(true);
			}
			const { svg } = step.media as { svg: string };
			// Theme colours come from the workbench's variables; no fonts, scripts or remote content.
			const text = read(svg).toString();
			expect(text, svg).toContain('var(--vscode-');
			expect(text, svg).not.toMatch(/<script|<text|href="http|@import|font-family/i);
		}
		for (const id of Object.values(viewIds)) expect(views.has(id), id).toBe(true);
	});

	it('is marketplace-ready: a 128×128 PNG icon, a banner, known categories, at most 30 keywords', () => {
		const png = read(manifest.icon ?? 'missing');
		expect(png.subarray(1, 4).toString()).toBe('PNG');
		expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
		expect(manifest.galleryBanner?.color).toMatch(/^#[0-9a-f]{6}$/i);
		expect(['dark', 'light']).toContain(manifest.galleryBanner?.theme);
		const marketplace = ['AI', 'Chat', 'Machine Learning', 'Programming Languages', 'Testing', 'Other'];
		for (const category of manifest.categories ?? []) expect(marketplace).toContain(category);
		expect((manifest.keywords ?? []).length).toBeGreaterThan(0);
		expect((manifest.keywords ?? []).length).toBeLessThanOrEqual(30);
	});

	it('packages with the pinned vsce, not one fetched by npx', () => {
		expect(manifest.devDependencies['@vscode/vsce']).toMatch(/^\d+\.\d+\.\d+$/);
		expect(manifest.scripts.package).toMatch(/(^|&& )vsce package /);
		expect(manifest.scripts.package).not.toContain('npx');
	});
});
