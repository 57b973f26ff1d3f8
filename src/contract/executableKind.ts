/** Who runs or obeys a flagged file (`core/changes/executablePaths.ts` decides; the panel names it). */
export type ExecutableKind =
	| 'editor'
	| 'agents'
	| 'instructions'
	| 'ci'
	| 'git'
	| 'devcontainer'
	| 'shell'
	| 'install'
	| 'make'
	| 'vendor';
