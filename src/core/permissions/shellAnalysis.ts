/**
 * What reading a command line yields (`analyseShell` in `shellCommand.ts`): its parts, its
 * substitutions and the features that weaken static reading. Types only, so the reader's two passes
 * (`shellSubstitutions.ts`, `shellCommand.ts`) and the permission engine share them without a loop.
 */

/** Shell features that defeat (or weaken) static reading; the risk classifier weighs them. */
export type ShellFeature =
	| 'substitution'
	| 'process-substitution'
	| 'eval'
	| 'nested-shell'
	| 'heredoc'
	| 'background'
	| 'subshell'
	| 'variable-program'
	| 'too-deep'
	| 'unbalanced';

export interface Redirect {
	readonly op: string;
	readonly target: string;
}

export interface CommandPart {
	/** Words as the shell passes them (quotes removed), wrappers included, assignments excluded. */
	readonly words: readonly string[];
	/** The words from the real program on, after wrappers such as `sudo`, `env`, `nice`, `xargs`. */
	readonly program: readonly string[];
	/** Lower-case base name of the real program (`/usr/bin/RM` → `rm`); '' when there is none. */
	readonly name: string;
	/** Base names of the wrappers removed to reach `program`, outermost first. */
	readonly wrappers: readonly string[];
	/** Leading `NAME=value` words. */
	readonly assignments: readonly string[];
	readonly redirects: readonly Redirect[];
	/** Where the part was written: in the line, inside a substitution, or in a nested script. */
	readonly origin: 'top' | 'substitution' | 'nested';
	/** Base names of the programs piped into this part, nearest last. */
	readonly upstream: readonly string[];
	/** Indexes (into `ShellAnalysis.substitutions`) of the substitutions among this part's words. */
	readonly substitutions: readonly number[];
	/** The part as rules match it: `words` joined by single spaces. */
	readonly text: string;
}

export interface Substitution {
	readonly kind: 'command' | 'process';
	readonly body: string;
	/** Base names of every program inside the substitution (nested ones included). */
	readonly programs: readonly string[];
}

export interface ShellAnalysis {
	readonly raw: string;
	readonly parts: readonly CommandPart[];
	readonly substitutions: readonly Substitution[];
	readonly features: ReadonlySet<ShellFeature>;
}
