/** Shared helpers of this tool's tests. */
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

export interface Converted {
  from: string;
  to: string;
  output: string;
  detected: boolean;
  confidence?: number;
  warnings: string[];
}

export interface Detected {
  format: string | null;
  confidence: number;
  candidates: { format: string; confidence: number }[];
}

/** The tool as the service runs it: input through its schema first. */
export const formatDetective = toolRunner(tool, run);
export const convert = async (input: string, to?: string, from?: string): Promise<Converted> =>
  (await formatDetective({ input, to, from }, 'convert')) as Converted;
export const detect = async (input: unknown): Promise<Detected> =>
  (await formatDetective({ input }, 'detect')) as Detected;
