/** The parts of a `vscode.LanguageModelChat` used to pick one (pure, so it is unit-tested). */
export interface ChatModelInfo {
	readonly id: string;
	readonly family: string;
	readonly name: string;
	readonly vendor: string;
	/**
	 * What the model takes besides text. VS Code's `LanguageModelChat` objects carry it at run time
	 * (`supportsImageToText`: the provider's `imageInput`, in 1.100 and 1.139 alike) though the stable
	 * typings leave it out, so it is read as optional.
	 */
	readonly capabilities?: { readonly supportsImageToText?: boolean };
}

/** Whether a VS Code chat model declares image input (`LanguageModelDataPart.image` parts). */
export function takesImages(model: ChatModelInfo | undefined): boolean {
	return model?.capabilities?.supportsImageToText === true;
}

/**
 * The model a `vscode_lm` config means by `model`: an exact id, else a family (`gpt-4o`), else a
 * display name, else `vendor/family` (`copilot/gpt-4o`); case-insensitive. Undefined if none.
 */
export function pickChatModel<T extends ChatModelInfo>(models: readonly T[], wanted: string): T | undefined {
	const key = wanted.trim().toLowerCase();
	const by = (value: (m: T) => string) => models.find((m) => value(m).toLowerCase() === key);
	return by((m) => m.id) ?? by((m) => m.family) ?? by((m) => m.name) ?? by((m) => `${m.vendor}/${m.family}`);
}

/** How a config names a model: its family, which is stable across versions. */
export function describeChatModel(model: ChatModelInfo): string {
	return `${model.family} (${model.vendor}${model.name && model.name !== model.family ? `, ${model.name}` : ''})`;
}

/**
 * Up to `max` models with distinct families, in the order VS Code lists them: the members a
 * default team takes from the VS Code language models.
 */
export function distinctFamilies<T extends ChatModelInfo>(models: readonly T[], max: number): T[] {
	const seen = new Set<string>();
	const picked: T[] = [];
	for (const model of models) {
		const family = model.family.toLowerCase();
		if (seen.has(family)) continue;
		seen.add(family);
		picked.push(model);
		if (picked.length === max) break;
	}
	return picked;
}
