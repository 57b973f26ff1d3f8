/**
 * The import graph's rules (docs/architecture.md, Layers), checked by `npm run check:deps` in `npm test`.
 * Type-only imports count: a loop or a layer breach through types is still a loop or a breach.
 */

/**
 * The core's top folders, bottom to top, each with what it may import besides itself: a folder
 * listed before it (with its subfolders), or only a part of one (`providers/spec`, the factory
 * `providers/createModel.ts`). Every folder may import src/contract (the formats every layer
 * shares: run events, the run's result, hunk rules, run ids, the run directory's layout) and nothing
 * of the protocol, the CLI or the editor. A folder names only what is listed before it (checked when this file
 * loads), so no two top folders import each other and no longer loop exists; a subfolder counts as
 * its top folder. test/unit/architecture/dependencyRules.test.ts also folds the import graph itself
 * into top folders and finds no loop.
 */
const coreLayers = {
	util: [],
	workflow: [],
	codeReview: [],
	secrets: ['util'],
	workspace: ['util'],
	// The run directory and the accepted changes: files on disk, below everything that runs a team.
	runStore: ['util', 'secrets'],
	changes: ['util', 'secrets', 'workspace', 'runStore'],
	permissions: ['util'],
	exec: ['util', 'workspace'],
	// What a model is and the adapters behind it; its parts' own order is providerParts below.
	providers: ['util', 'workflow', 'secrets', 'workspace', 'exec'],
	mcp: ['util', 'secrets', 'permissions', 'exec', 'providers/spec'],
	tools: ['util', 'secrets', 'workspace', 'permissions', 'exec', 'providers/spec', 'mcp'],
	context: ['util', 'workspace', 'providers/spec', 'tools'],
	agents: ['util', 'workflow', 'workspace', 'context', 'providers/spec', 'providers/shared', 'tools'],
	orchestrator: [
		'util',
		'workflow',
		'workspace',
		'context',
		'providers/spec',
		'providers/shared',
		'tools',
		'agents',
	],
	sessions: ['util', 'workspace', 'changes', 'runStore', 'orchestrator'],
	// The stats: a read model over the run directories and their change records, never writing.
	stats: ['util', 'changes', 'runStore'],
	// Voted plans: made from a run's answers, carried out by runs; the documents beside the run store.
	plans: ['util', 'codeReview', 'runStore', 'context'],
	// The YAML's translation into every part's settings, so it sits above the parts it configures.
	config: ['util', 'secrets', 'workspace', 'permissions', 'providers/spec', 'mcp', 'tools', 'orchestrator'],
	trust: ['util', 'config', 'mcp', 'providers/spec'],
	team: [
		'util',
		'secrets',
		'config',
		'mcp',
		'orchestrator',
		'providers/createModel.ts',
		'providers/spec',
		'providers/shared',
		'trust',
	],
	// Starting a run puts everything together.
	run: [
		'util',
		'workflow',
		'secrets',
		'workspace',
		'permissions',
		'exec',
		'providers/createModel.ts',
		'providers/spec',
		'providers/shared',
		'mcp',
		'tools',
		'context',
		'orchestrator',
		'runStore',
		'changes',
		'sessions',
		'config',
		'trust',
		'team',
	],
};

/**
 * The parts of `providers`, bottom to top, each with the parts listed before it and the folders of
 * coreLayers.providers it may import: spec (what a model is: ChatModel, errors, presets, pricing,
 * coding-agent settings), shared (streams, retries, clients), vendors (the API adapters, the
 * scripted model), codingAgents (CLIs behind the same ChatModel), and the factory createModel.ts,
 * the one file that sees vendors and coding agents both.
 */
const providerParts = {
	spec: ['util', 'workspace'],
	shared: ['util', 'secrets', 'spec'],
	vendors: ['util', 'workflow', 'spec', 'shared'],
	codingAgents: ['util', 'workspace', 'exec', 'spec', 'shared'],
	'createModel.ts': ['util', 'spec', 'vendors', 'codingAgents'],
};

/** A folder or file under src/core, as a path pattern without the `^src/core/` prefix. */
const pathOf = (name) => (name.endsWith('.ts') ? `${name.replace('.', '[.]')}$` : `${name}/`);
/** What a providers part names: a part before it, or a core folder. */
const partPath = (name) => pathOf(name in providerParts ? `providers/${name}` : name);
const ruleName = (name) => `core-${name.replace('/', '-').replace(/[.]ts$/, '')}`;

const order = Object.keys(coreLayers);
for (const [folder, allowed] of Object.entries(coreLayers)) {
	for (const other of allowed) {
		const [top, part] = other.split('/');
		if (!(top in coreLayers) || (part !== undefined && !(top === 'providers' && part in providerParts)))
			throw new Error(`.dependency-cruiser.cjs: ${folder} names no folder "${other}"`);
		if (order.indexOf(top) >= order.indexOf(folder)) {
			throw new Error(`.dependency-cruiser.cjs: ${folder} may not import ${other}, listed after it`);
		}
	}
}
const partOrder = Object.keys(providerParts);
for (const [part, allowed] of Object.entries(providerParts)) {
	for (const other of allowed) {
		if (
			other in providerParts
				? partOrder.indexOf(other) >= partOrder.indexOf(part)
				: !coreLayers.providers.includes(other)
		)
			throw new Error(`.dependency-cruiser.cjs: providers/${part} may not import ${other}`);
	}
}

const coreFolderRules = Object.entries(coreLayers).map(([folder, allowed]) => ({
	name: ruleName(folder),
	comment: `src/core/${folder} may import only ${allowed.length ? allowed.join(', ') : 'itself'} (and src/contract).`,
	severity: 'error',
	from: { path: `^src/core/${folder}/` },
	to: { path: '^src/core/', pathNot: `^src/core/(${[folder, ...allowed].map(pathOf).join('|')})` },
}));

const providerPartRules = Object.entries(providerParts).map(([part, allowed]) => ({
	name: ruleName(`providers/${part}`),
	comment: `src/core/providers/${part} may import only ${allowed.join(', ')} (and src/contract).`,
	severity: 'error',
	from: { path: `^src/core/${partPath(part)}` },
	to: { path: '^src/core/', pathNot: `^src/core/(${[part, ...allowed].map(partPath).join('|')})` },
}));

module.exports = {
	// `vscode` resolves to its types (node_modules/@types/vscode) where installed, else stays `vscode`.
	forbidden: [
		{
			name: 'no-circular',
			comment: 'No import cycle: move the shared type to a module both sides import.',
			severity: 'error',
			from: { path: '^(src|webview)/' },
			to: { circular: true },
		},
		{
			name: 'contract-imports-nothing',
			comment:
				'src/contract (run events, the run result, hunk rules, run ids, the run-directory layout) is the leaf every layer imports; it imports nothing of ours.',
			severity: 'error',
			from: { path: '^src/contract/' },
			to: { path: '^(src|webview)/', pathNot: '^src/contract/' },
		},
		...coreFolderRules,
		...providerPartRules,
		{
			name: 'core-folder-has-layer',
			comment: 'A new folder of src/core takes its place in coreLayers above.',
			severity: 'error',
			from: { path: '^src/core/[^/]+/', pathNot: `^src/core/(${order.map(pathOf).join('|')})` },
			to: { path: '^src/' },
		},
		{
			name: 'core-providers-part-has-place',
			comment: 'A new folder or file directly in src/core/providers takes its place in providerParts above.',
			severity: 'error',
			from: {
				path: '^src/core/providers/',
				pathNot: `^src/core/providers/(${partOrder.map(pathOf).join('|')})`,
			},
			to: { path: '^src/' },
		},
		{
			name: 'core-not-protocol',
			comment: 'The protocol is built on the core and the contract, never the other way round.',
			severity: 'error',
			from: { path: '^src/core/' },
			to: { path: '^src/protocol/' },
		},
		{
			name: 'protocol-over-contract',
			comment:
				'The protocol, and with it the webview bundle, reads only src/contract: no core code reaches the panel.',
			severity: 'error',
			from: { path: '^src/protocol/' },
			to: { path: '^src/(core|cli|vscode)/|^src/extension[.]ts$' },
		},
		{
			name: 'core-and-protocol-host-free',
			comment: 'The core and the protocol run in the CLI, the extension host and (protocol) the webview.',
			severity: 'error',
			from: { path: '^src/(core|protocol|contract)/' },
			to: {
				path: '^(vscode$|src/(vscode|cli)/|src/extension[.]ts$|webview/)|(^|/)node_modules/@types/vscode/',
			},
		},
		{
			name: 'webview-only-protocol',
			comment:
				'The panel bundle sees the host only through src/protocol and src/contract (and its own npm packages).',
			severity: 'error',
			from: { path: '^webview/' },
			to: { pathNot: '^(webview|src/(protocol|contract))/|(^|/)node_modules/' },
		},
		{
			name: 'vscode-common-foundation',
			comment:
				"src/vscode/common is the glue's foundation: the other glue folders import it, it imports none of them.",
			severity: 'error',
			from: { path: '^src/vscode/common/' },
			to: { path: '^src/(vscode/|extension[.]ts$)', pathNot: '^src/vscode/common/' },
		},
		{
			name: 'review-loop-above-changes',
			comment:
				'src/vscode/reviewLoop (comments on a proposal, Send to Team) is built on the change review and the runs; they never import it (extension.ts wires its view decorator into ChangeReview).',
			severity: 'error',
			from: { path: '^src/vscode/(changes|run|panel|common)/' },
			to: { path: '^src/vscode/reviewLoop/' },
		},
		{
			name: 'cli-not-editor',
			comment: 'The headless CLI never loads editor glue.',
			severity: 'error',
			from: { path: '^src/cli/' },
			to: { path: '^(vscode$|src/(vscode/|extension[.]ts$))|(^|/)node_modules/@types/vscode/' },
		},
		{
			name: 'editor-not-cli',
			comment: 'The extension shares the core with the CLI, not the CLI itself.',
			severity: 'error',
			from: { path: '^src/(vscode/|extension[.]ts$)' },
			to: { path: '^src/cli/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		tsConfig: { fileName: 'tsconfig.json' },
		tsPreCompilationDeps: true,
	},
};
