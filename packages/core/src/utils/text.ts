/**
 * Small text helpers shared by models, serializers and views.
 * @module
 */

/**
 * The label DRF derives from a field name: `publication_date` → `Publication date`, `id` → `ID`.
 *
 * @example
 * ```ts
 * labelFromName('stock_information'); // 'Stock information'
 * ```
 */
export function labelFromName(name: string): string {
  if (name === 'id') return 'ID';
  const spaced = name.replaceAll('_', ' ');
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** `BookProxy` → `book_proxy`; used for default table names. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** `BookProxyViewSet` → `Book Proxy`: splits camel case as DRF's view names do. */
export function splitCamelCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim();
}

/** `stock_information` → `StockInformation`: the suffix of a `validateStockInformation` hook. */
export function pascalCase(name: string): string {
  return name
    .split(/[_\-\s]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The English name of a JavaScript value's type as Python would print it in DRF messages. */
export function pythonTypeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** True for names that are safe as SQL identifiers without quoting tricks. */
export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name) && name.length <= 63;
}

/** Replaces `%(name)s` and `{name}` placeholders, the two styles DRF messages use. */
export function interpolate(template: string, params: Readonly<Record<string, unknown>>): string {
  // Most messages have no placeholder ('This field is required.'): as they are, without a
  // regular expression and its callback.
  if (template.indexOf('{') === -1 && template.indexOf('%(') === -1) return template;
  return template.replace(
    /\{(\w+)\}|%\((\w+)\)s/g,
    (whole, a: string | undefined, b: string | undefined) => {
      const key = (a ?? b) as string;
      return Object.hasOwn(params, key) ? String(params[key]) : whole;
    },
  );
}
