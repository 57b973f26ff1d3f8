import type * as vscode from 'vscode';

const pinsKey = 'massgen.runs.pinnedSessions';

/** Pinned sessions (workspace state): retention never deletes their runs. */
export class SessionPins {
	constructor(private readonly _memento: vscode.Memento) {}

	has(sessionId: string): boolean {
		return this.all().has(sessionId);
	}

	all(): ReadonlySet<string> {
		const stored = this._memento.get<unknown>(pinsKey);
		return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
	}

	async set(sessionId: string, pinned: boolean): Promise<void> {
		const pins = new Set(this.all());
		if (pinned) pins.add(sessionId);
		else pins.delete(sessionId);
		await this._memento.update(pinsKey, [...pins].sort());
	}
}
