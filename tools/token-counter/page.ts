import { definePage } from '#tool-kit';
import { ESTIMATES } from './estimates.js';

/** An estimate's bound as the FAQ writes it: 0.17 is "17 %". */
const bound = (family: keyof typeof ESTIMATES) => `${Math.round(ESTIMATES[family].errorBound * 100)} %`;

export default definePage({
  category: 'ai',
  icon: 'hash',
  keywords: [
    'token',
    'tokens',
    'tiktoken',
    'tokenizer',
    'bpe',
    'gpt-4o',
    'gpt-4',
    'context window',
    'prompt length',
    'o200k_base',
    'cl100k_base',
    'llama 3',
    'mistral',
    'mixtral',
    'claude',
    'gemini',
    'chat messages',
    'token cost',
    'pricing',
  ],
  tags: ['llm', 'tokenizer', 'openai', 'llama', 'mistral', 'claude', 'gemini'],
  faqs: [
    {
      question: 'Which tokenizers are used?',
      answer:
        "OpenAI: the tiktoken rank files shipped by js-tiktoken (o200k_base, cl100k_base, p50k_base, r50k_base), counts match tiktoken. Llama 3.x: llama3-tokenizer-js (Meta's tokenizer). Mistral 7B v0.1/v0.2 and Mixtral 8x7B: mistral-tokenizer-js (the v1 SentencePiece tokenizer, with its leading space). Everything runs locally; results say exact: true.",
    },
    {
      question: 'How exact are Claude, Gemini and newer Mistral counts?',
      answer: `They are estimates (exact: false): the text is cut the way the reference tokenizer cuts it (digits one by one for Gemini and Tekken), a proxy tokenizer counts the pieces, and weights calibrated on a corpus the tool ships (prose, code, JSON, URLs, digit and whitespace runs, base64, non-Latin and mixed scripts, emoji) scale them. The answer's estimate object gives the method, the reference the bound was measured against and the largest error on that corpus (Claude ${bound('claude')} against Anthropic's legacy tokenizer, Gemini ${bound('gemini')} against the Gemma tokenizer, Tekken models ${bound('mistral-tekken')}, Mistral v0.3-era models ${bound('mistral-v3')}) with a low..high range. Claude 3 and later have no public tokenizer: for billing-exact counts use the vendor's token-counting API.`,
    },
    {
      question: 'Does it count chat messages?',
      answer:
        "Yes, with messages instead of text: OpenAI chat models by the OpenAI cookbook's rule (3 tokens per message, 1 per name, 3 priming the reply; 129 tokens for the cookbook's example on gpt-4), Llama 3 by Meta's chat template token for token. chatFormat in the answer names the rule. Other families have no published rule and refuse messages.",
    },
    {
      question: 'Where do context windows and prices come from?',
      answer:
        'From one dated table in the tool (prices.json): for each model its id, the aliases its vendor documents (dated snapshots such as gpt-4o-2024-08-06, -latest names, Hugging Face and Ollama names), context window, input and output USD per million tokens, the date and the vendor page. A name finds its entry only as its id or a documented alias, never by a prefix: gpt-4-1106-preview is GPT-4 Turbo (128,000 tokens, $10/$30), not GPT-4. cost gives the input cost (and the output cost with expectedOutputTokens), pricesAsOf and source; prices change, so check the source before relying on them.',
    },
    {
      question: 'How are special tokens like <|endoftext|> handled?',
      answer:
        'As plain text: they are split like any other characters (tiktoken encode with allowed_special and disallowed_special empty), so user text can never inject a control token and never causes an error.',
    },
    {
      question: 'Why do some pieces look like \\xF0\\x9F?',
      answer:
        'A token can hold part of a multi-byte UTF-8 character (emoji and rare characters often span several tokens). Such bytes are shown as \\xHH escapes; complete characters are shown as text. `characters` counts Unicode code points and `bytes` counts UTF-8 bytes.',
    },
  ],
  howTo: [
    { title: 'Paste the text', description: 'Pass the text as `text` (generic: `a`).' },
    {
      title: 'Pick the model',
      description:
        'Set `model` (`b`) to a model such as gpt-4, llama-3.1-8b or claude-sonnet-4-5, or an encoding such as cl100k_base; default gpt-4o.',
    },
    {
      title: 'Count a conversation',
      description:
        'Leave `text` empty and pass `messages` [{role, content}] to include the chat-format tokens.',
    },
    {
      title: 'Check the context window and cost',
      description: 'Read `contextWindow`, `fits` and `cost`; add `expectedOutputTokens` for the output cost.',
    },
    { title: 'Check a limit', description: 'Set `limit` (`c`) to get `withinLimit` and `remaining`.' },
    { title: 'See the tokens', description: 'Set `mode` to tokens to list `ids` and `pieces`.' },
  ],
  relatedTools: ['structured-output-validator', 'schema-generator', 'format-detective'],
});
