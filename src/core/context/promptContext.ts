/**
 * The attachments as one agent's prompt carries them: images go as native image inputs to a model
 * that takes them (`capabilities.images`); any other model reads a notice in their place.
 */
import type { ChatMessage, ChatModel, ImageInput } from '../providers/spec/model.js';
import type { Attachment } from './attachment.js';

export interface PromptContext {
	readonly attachments: readonly Attachment[];
	/** The agent's model takes image inputs: the first message carries the images. */
	readonly images: boolean;
}

export const noContext: PromptContext = { attachments: [], images: false };

export function promptContext(attachments: readonly Attachment[], model: ChatModel): PromptContext {
	return { attachments, images: model.capabilities.images === true };
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
