/**
 * A response body as the browsable API shows it: JSON indented by two spaces, highlighted,
 * with absolute `http(s)` URLs as links.
 * @module
 */
import { escapeHtml, SafeHtml } from '../html.ts';

const LINK = /^https?:\/\/[^\s"'<>\\]+$/i;

/**
 * The JSON text of `data` as HTML (exactly `JSON.stringify(data, null, 2)` once the tags are
 * removed). Strings that are absolute http(s) URLs become links; nothing else is markup.
 *
 * @example
 * ```ts
 * jsonToHtml({ url: 'http://127.0.0.1:8000/books/api/books/1/' }).toString();
 * // {\n  <span class="j-key">"url"</span>: "<a href="http://...">http://...</a>"\n}
 * ```
 */
export function jsonToHtml(data: unknown): SafeHtml {
  if (data === undefined) return new SafeHtml('');
  // What JSON.stringify writes (toJSON, dropped undefined values), as plain data.
  const plain: unknown = JSON.parse(JSON.stringify(data) ?? 'null');
  const out: string[] = [];
  write(plain, '', out);
  return new SafeHtml(out.join(''));
}

function write(value: unknown, indent: string, out: string[]): void {
  if (value === null) {
    out.push('<span class="j-lit">null</span>');
  } else if (typeof value === 'string') {
    out.push(stringHtml(value));
  } else if (typeof value === 'number') {
    out.push(`<span class="j-num">${escapeHtml(JSON.stringify(value))}</span>`);
  } else if (typeof value === 'boolean') {
    out.push(`<span class="j-lit">${value}</span>`);
  } else if (Array.isArray(value)) {
    if (value.length === 0) {
      out.push('[]');
      return;
    }
    const inner = `${indent}  `;
    out.push('[\n');
    value.forEach((item, i) => {
      out.push(inner);
      write(item, inner, out);
      out.push(i < value.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}]`);
  } else {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) {
      out.push('{}');
      return;
    }
    const inner = `${indent}  `;
    out.push('{\n');
    entries.forEach(([key, item], i) => {
      out.push(`${inner}<span class="j-key">${escapeHtml(JSON.stringify(key))}</span>: `);
      write(item, inner, out);
      out.push(i < entries.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}}`);
  }
}

function stringHtml(value: string): string {
  const text = escapeHtml(JSON.stringify(value));
  if (!LINK.test(value)) return `<span class="j-str">${text}</span>`;
  const inner = escapeHtml(JSON.stringify(value).slice(1, -1));
  return `<span class="j-str">"<a href="${escapeHtml(value)}" rel="nofollow">${inner}</a>"</span>`;
}
