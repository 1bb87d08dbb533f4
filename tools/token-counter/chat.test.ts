/**
 * messages: the OpenAI cookbook's published example ("How to count tokens with tiktoken",
 * section 6: 129 prompt tokens on gpt-3.5-turbo / gpt-4-0613 / gpt-4, 124 on gpt-4o and
 * gpt-4o-mini, as the OpenAI API reported), and Llama 3's chat template against
 * llama3-tokenizer-js encoding the rendered template with its special tokens.
 */
import llama3Tokenizer from 'llama3-tokenizer-js';
import { describe, expect, it } from 'vitest';
import { declaredCases, expectToolError, toolRunner } from '../_shared/test-helpers.js';
import { llama3TemplateIds, MAX_MESSAGES } from './chat.js';
import { loadLlama3 } from './open-weights.js';
import run from './run.js';
import tool from './tool.js';

const call = toolRunner(tool, run);
const count = (input: Record<string, unknown>) => call({ text: '', ...input }, 'count');

/** The cookbook's example_messages, verbatim. */
const COOKBOOK = [
  {
    role: 'system',
    content:
      'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.',
  },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  {
    role: 'system',
    name: 'example_assistant',
    content: 'Things working well together will increase revenue.',
  },
  {
    role: 'system',
    name: 'example_user',
    content:
      "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage.",
  },
  {
    role: 'system',
    name: 'example_assistant',
    content: "Let's talk later when we're less busy about how to do better.",
  },
  {
    role: 'user',
    content: "This late pivot means we don't have time to boil the ocean for the client deliverable.",
  },
];

const PUBLISHED: [string, number][] = [
  ['gpt-3.5-turbo', 129],
  ['gpt-4-0613', 129],
  ['gpt-4', 129],
  ['gpt-4o', 124],
  ['gpt-4o-mini', 124],
];

describe('messages with the OpenAI cookbook rule', () => {
  it.each(PUBLISHED)('%s: the cookbook example is %i prompt tokens', async (model, tokens) => {
    const r = await count({ model, messages: COOKBOOK });
    expect(r).toMatchObject({ tokens, exact: true, chatFormat: { rule: 'openai-cookbook', messages: 6 } });
  });

  it('runs every published case', () => {
    expect(PUBLISHED.length).toBe(declaredCases(import.meta.url, 'OpenAI cookbook'));
  });

  it('accepts the messages as JSON text (GET) and reports the overhead', async () => {
    const r = await count({
      model: 'gpt-4o',
      messages: JSON.stringify([{ role: 'user', content: 'hello world' }]),
    });
    // 3 per message + "user" (1) + "hello world" (2) + 3 priming
    expect(r).toMatchObject({ tokens: 9, chatFormat: { overheadTokens: 7 }, characters: 11 });
  });
});

describe("messages with Llama 3's chat template", () => {
  const DIALOGS = [
    [{ role: 'user', content: 'What is the capital of France?' }],
    [
      { role: 'system', content: '  You are terse.\n' },
      { role: 'user', content: 'Name three prime numbers.' },
      { role: 'assistant', content: '2, 3, 5.' },
      { role: 'user', content: 'And the next one? 🦙' },
    ],
    [{ role: 'ipython', content: '{"result": [1, 2, 3]}' }],
  ];

  it.each(DIALOGS.map((d, i) => [i, d] as const))(
    'dialog %i: count = llama3-tokenizer-js on the rendered template',
    async (_i, dialog) => {
      const rendered = `<|begin_of_text|>${dialog
        .map((m) => `<|start_header_id|>${m.role}<|end_header_id|>\n\n${m.content.trim()}<|eot_id|>`)
        .join('')}<|start_header_id|>assistant<|end_header_id|>\n\n`;
      const oracle = llama3Tokenizer.encode(rendered, { bos: false, eos: false });
      expect(llama3TemplateIds(dialog, await loadLlama3())).toEqual(oracle);
      const r = await count({ model: 'llama-3.1-8b-instruct', messages: dialog });
      expect(r).toMatchObject({
        tokens: oracle.length,
        exact: true,
        chatFormat: { rule: 'llama3-chat-template' },
      });
    },
  );

  it('runs every dialog', () => {
    expect(DIALOGS.length).toBe(declaredCases(import.meta.url, 'Llama 3 chat template'));
  });
});

describe('messages errors', () => {
  it('wants text empty with messages', async () => {
    await expectToolError(
      call({ text: 'x', messages: [{ role: 'user', content: 'y' }] }, 'count'),
      'INVALID_INPUT',
      'give text or messages, not both',
    );
  });

  it.each([
    ['not JSON', 'messages is not valid JSON'],
    ['{"role":"user"}', 'messages must be an array'],
    [[], 'at least one message'],
    [[{ role: 'user' }], 'messages[0].content must be a string'],
    [[{ role: '', content: 'x' }], 'messages[0].role must be a string of 1..64 characters'],
    [[{ role: 'user', content: 'x', name: 'n'.repeat(65) }], 'messages[0].name must be a string'],
    [[{ role: 'user', content: 'x', extra: 1 }], "unknown field 'extra'"],
    [['hi'], 'messages[0] must be an object'],
  ])('%j as JSON text: INVALID_INPUT', async (messages, message) => {
    const text = typeof messages === 'string' ? messages : JSON.stringify(messages);
    await expectToolError(count({ messages: text }), 'INVALID_INPUT', message);
  });

  it('checks an array against the input schema first', async () => {
    await expectToolError(
      count({ messages: [{ role: '', content: 'x' }] }),
      'INVALID_INPUT',
      /role must NOT have/,
    );
    await expectToolError(count({ messages: [{ role: 'user', content: 1, x: 2 }] }), 'INVALID_INPUT');
  });

  it(`allows at most ${MAX_MESSAGES} messages`, async () => {
    const many = Array.from({ length: MAX_MESSAGES + 1 }, () => ({ role: 'user', content: 'x' }));
    await expectToolError(
      count({ messages: JSON.stringify(many) }),
      'INVALID_INPUT',
      'at most 1000 messages',
    );
    expect((await count({ messages: many.slice(1) })).chatFormat!.messages).toBe(MAX_MESSAGES);
  });

  it.each([
    ['claude-sonnet-4-5', 'no published chat-format rule'],
    ['mistral-7b-v0.1', 'no published chat-format rule'],
    ['text-embedding-3-small', 'messages for model'],
    ['gpt-oss-120b', 'messages for model'],
    ['p50k_base', 'messages for model'],
    // Completion models: they take a prompt, and the cookbook rule does not describe them.
    ['gpt-3.5-turbo-instruct', 'messages for model'],
    ['davinci-002', 'messages for model'],
    ['ft:babbage-002:acme::x1', 'messages for model'],
  ])('%s refuses messages with UNSUPPORTED_OPTION', async (model, message) => {
    await expectToolError(
      count({ model, messages: [{ role: 'user', content: 'x' }] }),
      'UNSUPPORTED_OPTION',
      message,
    );
  });

  it('refuses a name with Llama 3 and tokens mode with messages', async () => {
    await expectToolError(
      count({ model: 'llama-3-8b', messages: [{ role: 'user', content: 'x', name: 'bob' }] }),
      'UNSUPPORTED_OPTION',
      'not part of the Llama 3 chat template',
    );
    await expectToolError(
      call({ text: '', messages: [{ role: 'user', content: 'x' }] }, 'tokens'),
      'UNSUPPORTED_OPTION',
      'use mode count with messages',
    );
  });
});

describe('messages alone', () => {
  it('count without a text field at all (an MCP or dedicated call need not send text: "")', async () => {
    const alone = await call({ model: 'gpt-4o', messages: COOKBOOK }, 'count');
    expect(alone).toEqual(await count({ model: 'gpt-4o', messages: COOKBOOK }));
  });

  it('neither text nor messages is refused, naming both', async () => {
    await expectToolError(
      call({ model: 'gpt-4o' }, 'count'),
      'INVALID_INPUT',
      'text is required (or messages',
    );
  });
});
