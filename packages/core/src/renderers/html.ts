/**
 * HTML built safely: the `html` template tag escapes every interpolated value unless it is
 * already {@link SafeHtml} (made by `html` itself). Templates of the browsable API are small
 * functions returning `SafeHtml`; no value a client or a database gave can become markup.
 *
 * @example
 * ```ts
 * const title = '<script>alert(1)</script>';
 * html`<h1 class="title">${title}</h1>`.toString();
 * // '<h1 class="title">&lt;script&gt;alert(1)&lt;/script&gt;</h1>'
 * const items = ['a', 'b'].map((item) => html`<li>${item}</li>`);
 * html`<ul>${items}</ul>`; // arrays of SafeHtml are joined
 * ```
 * @module
 */

/**
 * Markup that is safe to output as it is.
 *
 * @example
 * ```ts
 * const trusted = new SafeHtml('<b>in stock</b>'); // markup made by the code, never by a client
 * html`<p>${trusted}</p>`; // '<p><b>in stock</b></p>', not escaped again
 * ```
 */
export class SafeHtml {
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  /** The markup, as it is (never escaped). */
  toString(): string {
    return this.#text;
  }
}

/** What a template may interpolate: text (escaped), markup, or a list of them. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as HTML: `&`, `<`, `>`, `"` and `'` become entities (safe in content and quoted attributes). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

function toHtml(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.toString();
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(toHtml).join('');
  return escapeHtml(String(value));
}

/** The template tag: literal parts are markup, interpolations are escaped (see the module). */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] as string;
  for (let i = 0; i < values.length; i++) out += toHtml(values[i] as HtmlValue) + strings[i + 1];
  return new SafeHtml(out);
}

/**
 * Attributes from an object: `false`, `null` and `undefined` leave an attribute out, `true`
 * writes it bare (`disabled`), anything else is escaped inside double quotes.
 *
 * @example
 * ```ts
 * html`<input${attrs({ name: 'title', value: 'a "b"', required: false, disabled: true })}>`;
 * // <input name="title" value="a &quot;b&quot;" disabled>
 * ```
 */
export function attrs(
  values: Readonly<Record<string, string | number | boolean | null | undefined>>,
): SafeHtml {
  let out = '';
  for (const [name, value] of Object.entries(values)) {
    if (value === false || value === null || value === undefined) continue;
    if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`Not an attribute name: ${name}`);
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return new SafeHtml(out);
}
