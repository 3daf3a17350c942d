/**
 * The browsable API's page: the request, the response (status, headers, body), pagination,
 * filters and the forms, around the toolkit's own stylesheet and script. A template of the
 * context `BrowsableAPIRenderer.getContext` gathers; it asks nothing of the view.
 * @module
 */
import type { PageLink } from '../../pagination/page-links.ts';
import { attrs, type HtmlValue, html, SafeHtml } from '../html.ts';
import type { FilterControl, FilterFormField } from './filter-controls.ts';
import { type FormsSpec, formsSection } from './forms-section.ts';
import { staticUrl } from './static-assets.ts';

export type { FilterControl, FilterFormField } from './filter-controls.ts';
export type { FormBlock, FormsSpec, RawFormSpec } from './forms-section.ts';

/** A link of the breadcrumb trail. */
export interface Crumb {
  /** The view's name (`Book List`). */
  readonly label: string;
  /** Its URL. */
  readonly href: string;
}

/** The header's account part: who is logged in and a logout button, or a login link. */
export interface AccountLinks {
  /** The logged-in user's name; undefined for an anonymous caller. */
  readonly user: string | undefined;
  /** The login page, with `?next=` back to this page. */
  readonly login?: string | undefined;
  /** Where the logout button POSTs, with `?next=` back to this page. */
  readonly logout?: string | undefined;
  /** The session's CSRF token, posted by the logout form as `csrfmiddlewaretoken`. */
  readonly csrfToken?: string | undefined;
}

/** Everything the page shows. */
export interface PageContext {
  /** The view's name, the page's title (`Book List`). */
  readonly name: string;
  /** The view's description (its docstring's text), shown under the title. */
  readonly description: string;
  /** The request's method (`GET`). */
  readonly method: string;
  /** The request's URL, with its query. */
  readonly url: string;
  /** The request's path, shown with the method. */
  readonly path: string;
  /** The response's status (`200`). */
  readonly status: number;
  /** The status's reason phrase (`OK`). */
  readonly statusText: string;
  /** The response's headers shown, name and value. */
  readonly headers: readonly (readonly [string, string])[];
  /** The response's data as highlighted JSON. */
  readonly body: SafeHtml;
  /** False for a response without data (204), whose body is not shown. */
  readonly hasBody: boolean;
  /** The methods the view answers (its `Allow` header). */
  readonly allowedMethods: readonly string[];
  /** The views above this one, the API root first. */
  readonly breadcrumbs: readonly Crumb[];
  /** The other formats of the page (`json`, `api`), as `?format=` links. */
  readonly formats: readonly {
    /** The format's name (`json`). */
    readonly label: string;
    /** This page with `?format=` that format. */
    readonly href: string;
  }[];
  /**
   * The previous and next pages of a paginated list; undefined for a detail or an unpaginated list.
   */
  readonly links:
    | {
        /** The previous page's URL, or null on the first. */
        readonly previous: string | null;
        /** The next page's URL, or null on the last. */
        readonly next: string | null;
        /** DRF's numbered page links (page-number and limit/offset pagination). */
        readonly pages?: readonly PageLink[];
      }
    | undefined;
  /** The filter, search and ordering controls of a list. */
  readonly filters: readonly FilterControl[];
  /**
   * The forms (`BrowsableAPIRenderer.getForms`), rendered with the page; markup of your own
   * (`SafeHtml`) is output as it is.
   */
  readonly forms: FormsSpec | SafeHtml | string | undefined;
  /** Whether an OPTIONS request can be made from the page. */
  readonly options: boolean;
  /** DRF's "Extra Actions" menu: the view set's extra actions of this route's kind. */
  readonly extraActions?: readonly {
    /** The action's name (`Set Password`). */
    readonly label: string;
    /** Its URL for this route. */
    readonly href: string;
  }[];
  /** The cookie whose value the page's script sends as `X-CSRFToken` (default `csrftoken`). */
  readonly csrfCookieName?: string;
  /** The header's login link, or the user's name and logout button. */
  readonly account?: AccountLinks | undefined;
  /** The row's `ETag` (a view's `versionField`): the page's script sends it as `If-Match` with PUT, PATCH, DELETE. */
  readonly etag?: string | undefined;
}

/** The whole page. */
export function renderPage(page: PageContext): SafeHtml {
  const statusClass = `status-${Math.floor(page.status / 100)}xx`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<title>${page.name} · REST API</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${staticUrl('browsable-api.css')}">
<script type="module" src="${staticUrl('browsable-api.js')}"></script>
</head>
<body${attrs({ 'data-csrf-cookie': page.csrfCookieName ?? 'csrftoken', 'data-etag': page.etag })}>
<a class="skip-link" href="#content">Skip to content</a>
<header class="topbar">
<div class="topbar-inner">
<a class="brand" href="${page.breadcrumbs[0]?.href ?? '/'}"><span class="brand-mark" aria-hidden="true">{ }</span> REST API</a>
<nav aria-label="Formats" class="formats"><span class="formats-label">View as</span>${page.formats.map(
    (f) => html`<a href="${f.href}">${f.label}</a>`,
  )}</nav>
${page.account ? accountHtml(page.account) : ''}
</div>
</header>
${breadcrumbs(page.breadcrumbs)}
<main id="content" tabindex="-1">
<div class="page-head">
<div class="page-title">
<h1>${page.name}</h1>
${page.description ? html`<p class="description">${page.description}</p>` : ''}
<p class="allowed"><span class="visually-hidden">Allowed methods: </span>${page.allowedMethods.map(
    (m) => html`<span class="method method-${m.toLowerCase()}">${m}</span>`,
  )}</p>
</div>
${
  page.options
    ? html`<form class="options-form" action="${page.url}" method="post" data-api-form data-method="OPTIONS">
<button type="submit" class="btn btn-secondary needs-js" data-method="OPTIONS" disabled>OPTIONS</button>
</form>`
    : ''
}
${page.extraActions?.length ? extraActionsHtml(page.extraActions) : ''}
</div>
${page.filters.length ? filtersHtml(page) : ''}
<section class="card response ${statusClass}" aria-labelledby="response-title" data-response>
<h2 id="response-title" class="visually-hidden">Request and response</h2>
<p class="request-line" data-request-line><span class="method method-${page.method.toLowerCase()}">${page.method}</span> <code>${page.url}</code></p>
<div class="response-head">
<p class="status" data-status tabindex="-1"><strong>HTTP ${page.status} ${page.statusText}</strong></p>
<pre class="headers" data-headers>${page.headers.map(
    ([name, value]) => html`<b>${name}:</b> ${value}\n`,
  )}</pre>
</div>
<pre class="json" data-body><code>${page.hasBody ? page.body : ''}</code></pre>
</section>
${paginationHtml(page)}
${formsHtml(page.forms)}
</main>
<footer class="footer"><p>The browsable API of <code>@restframework/core</code>. Every page is also JSON: send <code>Accept: application/json</code> or add <code>?format=json</code>.</p></footer>
</body>
</html>
`;
}

/** DRF's navbar: the user's name with a logout button (a POST: logging out changes state), or a login link. */
function accountHtml(account: AccountLinks): SafeHtml {
  if (account.user === undefined)
    return html`<nav class="account" aria-label="Account">${
      account.login ? html`<a class="login" href="${account.login}">Log in</a>` : ''
    }</nav>`;
  return html`<nav class="account" aria-label="Account"><span class="user">${account.user}</span>${
    account.logout
      ? html`<form class="logout-form" action="${account.logout}" method="post" data-api-form data-method="POST">${
          // The token as Django's {% csrf_token %}: a browser without script logs out too.
          account.csrfToken
            ? html`<input${attrs({ type: 'hidden', name: 'csrfmiddlewaretoken', value: account.csrfToken })}>`
            : ''
        }<button type="submit" class="btn btn-secondary" data-method="POST">Log out</button></form>`
      : ''
  }</nav>`;
}

function formsHtml(forms: PageContext['forms']): SafeHtml | string {
  if (forms === undefined || typeof forms === 'string' || forms instanceof SafeHtml)
    return forms ?? '';
  return formsSection(forms);
}

/** A menu that needs no script: a disclosure of links. */
function extraActionsHtml(actions: NonNullable<PageContext['extraActions']>): SafeHtml {
  return html`<details class="extra-actions"><summary class="btn btn-secondary">Extra Actions</summary><ul>${actions.map(
    (a) => html`<li><a href="${a.href}">${a.label}</a></li>`,
  )}</ul></details>`;
}

function breadcrumbs(crumbs: readonly Crumb[]): SafeHtml | string {
  if (crumbs.length === 0) return '';
  const last = crumbs.length - 1;
  return html`<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${crumbs.map((crumb, i) =>
    i === last
      ? html`<li><a href="${crumb.href}" aria-current="page">${crumb.label}</a></li>`
      : html`<li><a href="${crumb.href}">${crumb.label}</a></li>`,
  )}</ol></nav>`;
}

function filtersHtml(page: PageContext): SafeHtml {
  return html`<section class="filters" aria-label="Filters">${page.filters.map((filter) => {
    const id = `filter-${filter.param.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const hidden = filter.keep.map(
      ([name, value]) => html`<input${attrs({ type: 'hidden', name, value })}>`,
    );
    if (filter.fields) return filterFormHtml(page, filter, filter.fields, hidden);
    const control: HtmlValue = filter.options
      ? html`<select${attrs({ id, name: filter.param, 'data-autosubmit': true })}>
<option value=""${attrs({ selected: filter.current === '' })}>Default</option>
${filter.options.map(
  (o) =>
    html`<option${attrs({ value: o.value, selected: o.value === filter.current })}>${o.label}</option>`,
)}
</select>`
      : html`<input${attrs({ id, name: filter.param, value: filter.current, type: 'search' })}>`;
    return html`<form class="filter" method="get" action="${page.path}" aria-label="${filter.title}">
${hidden}<label for="${id}">${filter.title}</label>${control}<button type="submit" class="btn btn-secondary">Apply</button>
</form>`;
  })}</section>`;
}

/**
 * A form of several filters, each labelled, sent together (empty inputs are left out): a
 * disclosure that opens on demand, as DRF's "Filters" button, and open while a filter is on.
 */
function filterFormHtml(
  page: PageContext,
  filter: FilterControl,
  fields: readonly FilterFormField[],
  hidden: HtmlValue,
): SafeHtml {
  const active = fields.filter((f) => f.current !== '').length;
  const inputs = fields.map((field) => {
    const id = `filterset-${field.param.replace(/[^A-Za-z0-9_-]/g, '_')}`;
    const hintId = `${id}-hint`;
    let control: HtmlValue;
    if (field.options && field.multiple) {
      const chosen = new Set(field.current.split(','));
      control = html`<select${attrs({ id, name: field.param, multiple: true, size: Math.min(4, field.options.length) })}>
${field.options.map(
  (o) =>
    html`<option${attrs({ value: o.value, selected: chosen.has(o.value) })}>${o.label}</option>`,
)}
</select>`;
    } else if (field.options) {
      control = html`<select${attrs({ id, name: field.param })}>
<option value=""${attrs({ selected: field.current === '' })}>---------</option>
${field.options.map(
  (o) =>
    html`<option${attrs({ value: o.value, selected: o.value === field.current })}>${o.label}</option>`,
)}
</select>`;
    } else {
      control = html`<input${attrs({
        id,
        name: field.param,
        value: field.current,
        type: field.inputType ?? 'text',
        step: field.step,
        'aria-describedby': field.hint ? hintId : undefined,
        placeholder: field.hint ? field.hint.replace(/^.*: /, '') : undefined,
      })}>`;
    }
    return html`<div class="filter-field"><label for="${id}">${field.label}</label>${control}${
      field.hint ? html`<small class="hint" id="${hintId}">${field.hint}</small>` : ''
    }</div>`;
  });
  return html`<details class="filter-panel"${attrs({ open: active > 0 })}>
<summary class="btn btn-secondary">${filter.title}${active ? html` <span class="badge">${active}</span>` : ''}</summary>
<form class="filter filterset" method="get" action="${page.path}" aria-label="${filter.title}" data-drop-empty>
<fieldset><legend class="visually-hidden">${filter.title}</legend>
${hidden}<div class="filter-grid">${inputs}</div><div class="filter-actions"><button type="submit" class="btn btn-primary">Apply</button>${
    active
      ? html` <a class="btn btn-secondary" href="${clearUrl(page.path, filter.keep)}">Clear</a>`
      : ''
  }</div>
</fieldset></form>
</details>`;
}

/** The list without this form's filters (the other parameters kept). */
function clearUrl(path: string, keep: readonly (readonly [string, string])[]): string {
  const query = new URLSearchParams(keep as [string, string][]).toString();
  return query ? `${path}?${query}` : path;
}

function paginationHtml(page: PageContext): SafeHtml | string {
  const links = page.links;
  if (!links || (!links.previous && !links.next)) return '';
  const previous = links.previous
    ? html`<a class="btn btn-secondary" rel="prev" href="${links.previous}" aria-label="Previous page">«</a>`
    : html`<span class="btn btn-secondary" aria-disabled="true">«</span>`;
  const next = links.next
    ? html`<a class="btn btn-secondary" rel="next" href="${links.next}" aria-label="Next page">»</a>`
    : html`<span class="btn btn-secondary" aria-disabled="true">»</span>`;
  const numbers = (links.pages ?? []).map((link) =>
    link.isBreak
      ? html`<li class="page-break" aria-hidden="true">…</li>`
      : link.isActive
        ? html`<li><a class="btn btn-primary" href="${link.url}" aria-current="page">${link.number}</a></li>`
        : html`<li><a class="btn btn-secondary" href="${link.url}">${link.number}</a></li>`,
  );
  return html`<nav class="pagination" aria-label="Pagination"><ul>
<li>${previous}</li>${numbers}<li>${next}</li>
</ul></nav>
`;
}
