/**
 * Shared by this tool's tests: the tool as the service runs it (input through its schema
 * first), and the XSS oracle, which parses HTML with htmlparser2 (entities decoded, as a
 * browser does) and lists what makes it unsafe to embed.
 */
import { decodeHTML } from 'entities';
import { Parser } from 'htmlparser2';
import { toolRunner } from '../_shared/test-helpers.js';
import run from './run.js';
import tool from './tool.js';

export const htmlMarkdown = toolRunner(tool, run);
export const toMd = async (input: unknown) => (await htmlMarkdown({ input }, 'html-to-markdown')).output;
export const toHtml = async (input: unknown) => (await htmlMarkdown({ input }, 'markdown-to-html')).output;

/** Elements that must never appear in output meant to be embedded. */
const FORBIDDEN = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'style',
  'form',
  'frame',
  'frameset',
  'base',
  'meta',
  'link',
  'svg',
  'math',
  'applet',
  'template',
  'textarea',
  'button',
  'select',
]);
/** Attributes that take a URL. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'background',
  'poster',
  'cite',
  'data',
  'srcset',
]);
const BAD_SCHEME = /^(?:javascript|vbscript|data):/;

/** The URL as a browser would read its scheme: trimmed, control chars and whitespace gone, lower case. */
function schemeView(value: string): string {
  return value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '').toLowerCase();
}

/** Problems found by parsing `html` with htmlparser2 (the oracle); empty when it is safe to embed. */
export function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (FORBIDDEN.has(name)) problems.push(`<${name}>`);
        if (name === 'input' && attribs.type !== 'checkbox') problems.push(`<input type=${attribs.type}>`);
        for (const [attr, value] of Object.entries(attribs)) {
          if (attr.startsWith('on')) problems.push(`${name}[${attr}]`);
          if (attr === 'style' || attr === 'srcdoc') problems.push(`${name}[${attr}]`);
          if (!URL_ATTRIBUTES.has(attr)) continue;
          // decoded once by the parser (as a browser does), and once more to be strict
          for (const view of [schemeView(value), schemeView(decodeHTML(value))]) {
            if (BAD_SCHEME.test(view)) problems.push(`${name}[${attr}=${value}]`);
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  return problems;
}
