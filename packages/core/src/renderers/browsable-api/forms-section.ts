/**
 * The forms of a page: create (POST) on lists; replace (PUT), update (PATCH) and delete on
 * details; each an HTML form built from the serializer beside a raw-data form (a body of any
 * media type the view parses).
 * @module
 */

import { attrs, html, type SafeHtml } from '../html.ts';
import { type HtmlFormSpec, htmlForm, messagesOf } from './html-form.ts';

/** The raw-data form beside an HTML form. */
export interface RawFormSpec {
  readonly id: string;
  readonly action: string;
  readonly methods: readonly string[];
  /** Media types it can send, the default first. */
  readonly mediaTypes: readonly string[];
  readonly content: string;
  /** Errors of the last raw request with one of `methods`, to list above the text. */
  readonly errors: unknown;
}

/** One block of forms: a title, an HTML form and/or a raw form. */
export interface FormBlock {
  readonly id: string;
  readonly title: string;
  readonly html: HtmlFormSpec | undefined;
  readonly raw: RawFormSpec | undefined;
}

/** Everything the forms section shows. */
export interface FormsSpec {
  /** The forms: POST's on a list; on a detail, one for PUT and PATCH (an HTML form, a raw body). */
  readonly blocks: readonly FormBlock[];
  /** The URL to DELETE, when the caller may. */
  readonly deleteAction: string | undefined;
  /** Whether any form needs the toolkit's script (PUT, PATCH, DELETE and raw bodies do). */
  readonly needsScript: boolean;
  /** The record's `ETag` (a view's `versionField`), sent as `If-Match` with PUT, PATCH, DELETE. */
  readonly etag?: string;
}

/** The forms section, or an empty string when there is nothing to send. */
export function formsSection(spec: FormsSpec): SafeHtml | string {
  if (spec.blocks.length === 0 && !spec.deleteAction) return '';
  return html`<section class="forms" aria-labelledby="forms-title" data-forms>
<h2 id="forms-title" class="section-title">Send a request</h2>
${
  spec.needsScript
    ? html`<p class="js-note">PUT, PATCH, DELETE and raw bodies are sent by this page's script; without JavaScript, only the HTML form's POST works.</p>`
    : ''
}
${spec.blocks.map(
  (block) => html`<div class="form-block" id="${block.id}">
<h3>${block.title}</h3>
<div class="form-grid">
${
  block.html
    ? html`<div class="card form-card"><h4 class="card-title">HTML form</h4>${htmlForm(block.html)}</div>`
    : ''
}
${block.raw ? html`<div class="card form-card"><h4 class="card-title">Raw data</h4>${rawForm(block.raw)}</div>` : ''}
</div>
</div>`,
)}
${
  spec.deleteAction
    ? html`<div class="form-block danger-zone" id="delete">
<h3>Delete</h3>
<details class="card confirm">
<summary class="btn btn-danger-outline">Delete…</summary>
<form action="${spec.deleteAction}" method="post" data-api-form data-method="DELETE">
<p>This removes the record for good.</p>
<button type="submit" class="btn btn-danger needs-js" data-method="DELETE" disabled>Yes, DELETE it</button>
</form>
</details>
</div>`
    : ''
}
</section>`;
}

function rawForm(spec: RawFormSpec): SafeHtml {
  const messages = messagesOf(spec.errors);
  const typeId = `${spec.id}-media-type`;
  const contentId = `${spec.id}-content`;
  return html`<form${attrs({
    class: 'raw-form',
    id: `${spec.id}-form`,
    action: spec.action,
    method: 'post',
    novalidate: true,
    'data-raw-form': true,
    'data-method': spec.methods[0],
  })}>
${
  messages.length
    ? html`<div class="form-errors" role="alert" tabindex="-1"><p><strong>The request was not valid.</strong></p><ul>${messages.map(
        (m) => html`<li>${m}</li>`,
      )}</ul></div>`
    : ''
}
<div class="field">
<label for="${typeId}">Media type</label>
<select id="${typeId}" name="_content_type">${spec.mediaTypes.map(
    (type, i) => html`<option${attrs({ value: type, selected: i === 0 })}>${type}</option>`,
  )}</select>
</div>
<div class="field">
<label for="${contentId}">Content</label>
<textarea id="${contentId}" name="_content" rows="14" spellcheck="false" class="code">${spec.content}</textarea>
</div>
<div class="form-actions">${spec.methods.map(
    (method, i) =>
      html`<button${attrs({
        type: 'submit',
        class: `btn ${i === 0 ? 'btn-primary' : 'btn-secondary'} needs-js`,
        'data-method': method,
        disabled: true,
      })}>${method}</button>`,
  )}</div>
</form>`;
}
