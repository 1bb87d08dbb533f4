// mistral-tokenizer-js ships no types: the surface run.ts uses.
declare module 'mistral-tokenizer-js' {
  const tokenizer: {
    encode(prompt: string, addBos?: boolean, addPrecedingSpace?: boolean): number[];
    vocabById: string[];
    vocabByString: Map<string, number>;
    merges: Map<string, number>;
  };
  export default tokenizer;
}
