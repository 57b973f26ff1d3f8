/**
 * The attachments as one agent's prompt carries them: images go as native image inputs to a model
 * that takes them (`capabilities.images`); any other model reads a notice in their place.
 */
import type { ChatMessage, ChatModel, ImageInput } from '../providers/spec/model.js';
import type { Attachment } from './attachment.js';
import type { ProjectInstructions } from './projectInstructions.js';
import type { Revision } from './revision.js';

export interface PromptContext {
	readonly attachments: readonly Attachment[];
	/** The agent's model takes image inputs: the first message carries the images. */
	readonly images: boolean;
	/** The project's instruction files, the same for every agent; absent when off or none. */
	readonly instructions?: ProjectInstructions;
	/** The review comments of a revision (`reviewSection`); absent otherwise. */
	readonly revision?: Revision;
}

export const noContext: PromptContext = { attachments: [], images: false };

/** What a run gives every agent's first message (the run's `TurnContext` has both). */
export interface RunContext {
	readonly attachments: readonly Attachment[];
	readonly instructions?: ProjectInstructions;
	readonly revision?: Revision;
}

export function promptContext(run: RunContext, model: ChatModel): PromptContext {
	return {
		attachments: run.attachments,
		images: model.capabilities.images === true,
		...(run.instructions ? { instructions: run.instructions } : {}),
		...(run.revision ? { revision: run.revision } : {}),
	};
}

/** A user message with `content` and, when the model takes them, the attached images. */
export function userMessage(content: string, context: PromptContext): ChatMessage {
	const images: ImageInput[] = context.images
		? context.attachments.flatMap((attachment) =>
				attachment.kind === 'image'
					? [{ mediaType: attachment.mediaType, base64: Buffer.from(attachment.data).toString('base64') }]
					: [],
			)
		: [];
	return images.length ? { role: 'user', content, images } : { role: 'user', content };
}
