// The browsable API's script (served by @restframework/core, loaded as a module).
//
// Browsers send only GET and POST from plain forms. This script sends the page's forms with
// fetch, using the method of the button pressed (PUT, PATCH, DELETE, OPTIONS) and, for the
// raw-data form, the chosen media type; it asks for text/html and shows the page the server
// renders for the answer (errors beside their fields included). Without it, the page is still
// readable and the HTML form's POST still works.

const FORMS = 'form[data-api-form], form[data-raw-form]';

document.documentElement.classList.add('js');
enable(document);

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches(FORMS)) return;
  event.preventDefault();
  void send(form, event.submitter);
});

// A filter's select (the ordering) applies as soon as it changes.
document.addEventListener('change', (event) => {
  const control = event.target;
  if (control instanceof HTMLSelectElement && control.matches('[data-autosubmit]')) {
    control.form?.requestSubmit();
  }
});

// A filter set's form leaves its empty inputs out of the URL (they filter nothing).
document.addEventListener(
  'submit',
  (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form[data-drop-empty]')) return;
    for (const control of form.querySelectorAll('input[name], select[name]')) {
      if (control instanceof HTMLSelectElement && control.multiple) {
        // An `__in` filter takes its values comma-separated in one parameter.
        const values = [...control.selectedOptions].map((o) => o.value).filter(Boolean);
        control.disabled = true;
        if (values.length) {
          const joined = document.createElement('input');
          joined.type = 'hidden';
          joined.name = control.name;
          joined.value = values.join(',');
          form.append(joined);
        }
      } else if (control.value === '') control.disabled = true;
    }
  },
  true,
);

/** Turns on the controls that need this script. */
function enable(root) {
  for (const control of root.querySelectorAll('.needs-js')) control.disabled = false;
}

/** The session's CSRF token (the cookie the page names, which the session login sets), or ''. */
function csrfToken() {
  const name = document.body.dataset.csrfCookie || 'csrftoken';
  for (const pair of document.cookie.split(';')) {
    const at = pair.indexOf('=');
    if (at !== -1 && pair.slice(0, at).trim() === name)
      return decodeURIComponent(pair.slice(at + 1));
  }
  return '';
}

async function send(form, submitter) {
  const method = (submitter?.dataset.method || form.dataset.method || 'POST').toUpperCase();
  const headers = { Accept: 'text/html' };
  // Session-authenticated writes need the token (SessionAuthentication's CSRF check).
  const token = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? '' : csrfToken();
  if (token) headers['X-CSRFToken'] = token;
  let body;
  if (form.matches('[data-raw-form]')) {
    const type = form.elements.namedItem('_content_type').value;
    const content = form.elements.namedItem('_content').value;
    if (content.trim() !== '') {
      headers['Content-Type'] = type;
      body = content;
    }
  } else if (method !== 'DELETE' && method !== 'OPTIONS') {
    const data = new FormData(form);
    // A null shown as an empty control and left empty stays null: it is not sent (an update
    // keeps it; a create gets the field's default).
    for (const control of form.querySelectorAll('[data-null]')) {
      if (control.name && control.value === '' && !control.checked) data.delete(control.name);
    }
    body = form.enctype === 'multipart/form-data' ? data : new URLSearchParams(data);
  }
  // The page was rendered with the record's ETag: a write says which version it changes, so a
  // view that requires preconditions (428) is usable, and a change made meanwhile is a 412.
  const etag = document.body.dataset.etag;
  if (etag && (method === 'PUT' || method === 'PATCH' || method === 'DELETE'))
    headers['If-Match'] = etag;
  form.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(form.action, {
      method,
      headers,
      body,
      credentials: 'same-origin',
    });
    await show(response, method, form.action);
  } catch (error) {
    showFailure(form, error);
  } finally {
    form.removeAttribute('aria-busy');
  }
}

/** Shows the server's page for the answer, or a summary when it has no page (204). */
async function show(response, method, url) {
  // A login or logout sent on to its `next` page: go there, as a plain form post would.
  if (response.redirected && method !== 'GET') {
    location.assign(response.url);
    return;
  }
  const type = response.headers.get('Content-Type') || '';
  if (!type.startsWith('text/html')) {
    showBare(response, method, url, await response.text());
    return;
  }
  const page = new DOMParser().parseFromString(await response.text(), 'text/html');
  document.title = page.title;
  document.body.replaceWith(document.adoptNode(page.body));
  enable(document);
  const focus = document.querySelector('.form-errors') || document.querySelector('[data-status]');
  focus?.focus();
}

/** A response without a page of its own (a 204 has no body): status, headers and text. */
function showBare(response, method, url, text) {
  const panel = document.querySelector('[data-response]');
  if (!panel) return;
  const line = panel.querySelector('[data-request-line]');
  if (line) {
    const pill = document.createElement('span');
    pill.className = `method method-${method.toLowerCase()}`;
    pill.textContent = method;
    const target = document.createElement('code');
    target.textContent = new URL(url, location.href).pathname;
    line.replaceChildren(pill, ' ', target);
  }
  const status = panel.querySelector('[data-status]');
  if (status) {
    const strong = document.createElement('strong');
    strong.textContent = `HTTP ${response.status} ${response.statusText}`.trim();
    status.replaceChildren(strong);
  }
  panel.className = `card response status-${Math.floor(response.status / 100)}xx`;
  const headers = panel.querySelector('[data-headers]');
  if (headers) {
    headers.replaceChildren();
    for (const name of ['Allow', 'Content-Type', 'Vary']) {
      const value = response.headers.get(name);
      if (!value) continue;
      const b = document.createElement('b');
      b.textContent = `${name}:`;
      headers.append(b, ` ${value}\n`);
    }
  }
  const body = panel.querySelector('[data-body] code');
  if (body) body.textContent = text;
  if (response.ok) document.querySelector('[data-forms]')?.remove();
  status?.focus();
}

function showFailure(form, error) {
  let box = form.querySelector('.send-failure');
  if (!box) {
    box = document.createElement('p');
    box.className = 'form-errors send-failure';
    box.setAttribute('role', 'alert');
    form.prepend(box);
  }
  box.textContent = `The request could not be sent: ${error instanceof Error ? error.message : error}`;
}
