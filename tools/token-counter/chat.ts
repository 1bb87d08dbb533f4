/**
 * Chat-format overhead for a list of messages, with the rule each family publishes:
 *
 * - OpenAI (gpt-3.5-turbo-0613 and later chat models, gpt-4, gpt-4o, gpt-4.1, o-series,
 *   gpt-5): the OpenAI cookbook's num_tokens_from_messages ("How to count tokens with
 *   tiktoken"): 3 tokens per message, the tokens of each value (role, content, name),
 *   1 more per name, and 3 that prime the reply (<|start|>assistant<|message|>).
 * - Llama 3: Meta's chat format (llama3 ChatFormat.encode_dialog_prompt), token for token:
 *   <|begin_of_text|>, then per message <|start_header_id|>role<|end_header_id|>"\n\n"
 *   content.strip() <|eot_id|>, then the assistant header that primes the reply.
 *
 * Other families publish no rule the hub can apply offline: messages is UNSUPPORTED_OPTION there.
 */
import { parseJsonField, quote, ToolInputError, unsupported } from '#tool-kit';
import type { Encoder } from './encodings.js';
import type { ResolvedModel } from './families.js';
import { LLAMA3_SPECIAL } from './open-weights.js';

export const MAX_MESSAGES = 1_000;
export const MAX_ROLE_CHARS = 64;

export interface Message {
  role: string;
  content: string;
  name?: string;
}

export type ChatRule = 'openai-cookbook' | 'llama3-chat-template';

const bad = (message: string) => new ToolInputError(message, 'INVALID_INPUT');

/** The messages input (an array, or its JSON text on GET) checked; undefined when absent or empty text. */
export function parseMessages(value: unknown): Message[] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const list = parseJsonField(value, 'messages');
  if (!Array.isArray(list)) throw bad('messages must be an array of {role, content, name?} objects');
  if (list.length === 0) throw bad('messages must hold at least one message');
  if (list.length > MAX_MESSAGES) throw bad(`messages must hold at most ${MAX_MESSAGES} messages`);
  return list.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw bad(`messages[${i}] must be an object {role, content, name?}`);
    const { role, content, name, ...rest } = item as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra !== undefined) throw bad(`messages[${i}] has an unknown field ${quote(extra)}`);
    if (typeof role !== 'string' || role.length === 0 || role.length > MAX_ROLE_CHARS)
      throw bad(`messages[${i}].role must be a string of 1..${MAX_ROLE_CHARS} characters`);
    if (typeof content !== 'string') throw bad(`messages[${i}].content must be a string`);
    if (name !== undefined && (typeof name !== 'string' || name.length === 0 || name.length > MAX_ROLE_CHARS))
      throw bad(`messages[${i}].name must be a string of 1..${MAX_ROLE_CHARS} characters`);
    return { role, content, ...(name !== undefined ? { name } : {}) };
  });
}

export interface ChatCount {
  rule: ChatRule;
  tokens: number;
  /** Tokens of the contents alone (as the rule encodes them). */
  contentTokens: number;
}

/**
 * Models whose chat format the cookbook rule describes: chat models on o200k_base or
 * cl100k_base. Not gpt-oss: its harmony format frames messages otherwise. Not embeddings,
 * nor the completion models (gpt-3.5-turbo-instruct, davinci-002, babbage-002), which
 * take a prompt, not messages.
 */
const NOT_CHAT = /^(?:ft:)?(?:text-embedding|gpt-oss|gpt-3\.5-turbo-instruct|davinci-002|babbage-002)/;

function openAIChat(resolved: ResolvedModel): boolean {
  if (resolved.encoding !== 'o200k_base' && resolved.encoding !== 'cl100k_base') return false;
  return !NOT_CHAT.test(resolved.model ?? '');
}

export function countMessages(messages: Message[], resolved: ResolvedModel, encoder: Encoder): ChatCount {
  const what = resolved.model ?? resolved.encoding;
  if (resolved.family === 'openai') {
    if (!openAIChat(resolved))
      throw unsupported('messages for model', what, [
        'OpenAI chat models (o200k_base or cl100k_base)',
        'Llama 3',
      ]);
    let tokens = 3;
    let contentTokens = 0;
    for (const m of messages) {
      const content = encoder.encode(m.content).length;
      contentTokens += content;
      tokens += 3 + encoder.encode(m.role).length + content;
      if (m.name !== undefined) tokens += encoder.encode(m.name).length + 1;
    }
    return { rule: 'openai-cookbook', tokens, contentTokens };
  }
  if (resolved.family === 'llama3') {
    const named = messages.findIndex((m) => m.name !== undefined);
    if (named >= 0)
      throw new ToolInputError(
        `messages[${named}].name is not part of the Llama 3 chat template: leave it out`,
        'UNSUPPORTED_OPTION',
      );
    const header = (role: string) => 2 + encoder.encode(role).length + encoder.encode('\n\n').length;
    let tokens = 1 + header('assistant');
    let contentTokens = 0;
    for (const m of messages) {
      const content = encoder.encode(m.content.trim()).length;
      contentTokens += content;
      tokens += header(m.role) + content + 1;
    }
    return { rule: 'llama3-chat-template', tokens, contentTokens };
  }
  throw new ToolInputError(
    `messages: no published chat-format rule for ${quote(what)} (${resolved.family}); supported: OpenAI chat models, Llama 3. Count the text instead`,
    'UNSUPPORTED_OPTION',
  );
}

/** Llama 3's template as token ids (tests hold countMessages to it). */
export function llama3TemplateIds(messages: Message[], encoder: Encoder): number[] {
  const { beginOfText, startHeader, endHeader, endOfTurn } = LLAMA3_SPECIAL;
  const header = (role: string) => [
    startHeader,
    ...encoder.encode(role),
    endHeader,
    ...encoder.encode('\n\n'),
  ];
  const ids: number[] = [beginOfText];
  for (const m of messages) ids.push(...header(m.role), ...encoder.encode(m.content.trim()), endOfTurn);
  ids.push(...header('assistant'));
  return ids;
}
