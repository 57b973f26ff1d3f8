import * as vscode from 'vscode';
import type { Redactor } from '../../core/secrets/redactor.js';

/**
 * The secret values runs of this session resolved (keys, URL credentials, MCP values), kept so
 * the log, notifications and the panel redact them even after the run (a late error, a past run).
 */
export class SessionSecrets {
	/** `redactor`: the shell's seed, what it knows before any run (the extension's environment, `seedRedactor`). */
	constructor(private redactor: Redactor) {}

	/** Adds a run's secrets (`EngineRun.onRedactor`). */
	learn(redactor: Redactor): void {
		this.redactor = this.redactor.with(redactor.needles);
	}

	readonly text = (text: string): string => this.redactor.text(text);

	json<T>(value: T): T {
		return this.redactor.json(value);
	}
}

/** For the log: an `Error`'s stack (its message when it has none), anything else as `String` gives it. */
export function errorDetail(error: unknown): string {
	return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

const messageMethods = new Set<PropertyKey>([
	'trace',
	'debug',
	'info',
	'warn',
	'error',
	'append',
	'appendLine',
	'replace',
]);

/**
 * The single "MassGen" log channel (Output view; level follows "Developer: Set Log Level"). Every
 * line passes through the session's secrets first.
 */
export function createLog(secrets: SessionSecrets): vscode.LogOutputChannel {
	const channel = vscode.window.createOutputChannel('MassGen', { log: true });
	const clean = (value: unknown): unknown => {
		if (typeof value === 'string') return secrets.text(value);
		if (value instanceof Error) return secrets.text(errorDetail(value));
		return secrets.json(value);
	};
	return new Proxy(channel, {
		get(target, property) {
			const value: unknown = Reflect.get(target, property, target);
			if (typeof value !== 'function') return value;
			if (!messageMethods.has(property)) return value.bind(target);
			return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(clean));
		},
	});
}
