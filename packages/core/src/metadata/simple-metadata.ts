/**
 * OPTIONS bodies: DRF's `SimpleMetadata`.
 * @module
 */
import { APIException } from '../errors/api-exception.ts';
import type { FieldDescription } from '../fields/field.ts';
import type { Request } from '../http/request.ts';

/** What OPTIONS answers. */
export interface Metadata {
  determineMetadata(request: Request, view: any): Promise<Record<string, unknown>>;
}

/** A metadata class. */
export type MetadataClass = new () => Metadata;

/**
 * `{name, description, renders, parses, actions}`: `actions` holds, for `POST` on lists and
 * `PUT` on details, each serializer field's own description (read-only fields included), when
 * the caller may use that method. Fields describe themselves, so add-on fields appear with
 * their own keys without any change here.
 */
export class SimpleMetadata implements Metadata {
  async determineMetadata(request: Request, view: any): Promise<Record<string, unknown>> {
    const metadata: Record<string, unknown> = {
      name: view.getViewName(),
      description: view.getViewDescription(),
      renders: view.getRenderers().map((r: { mediaType: string }) => r.mediaType),
      parses: view.getParsers().map((p: { mediaType: string }) => p.mediaType),
    };
    if (typeof view.getSerializer === 'function') {
      const actions = await this.determineActions(request, view);
      if (Object.keys(actions).length) metadata.actions = actions;
    }
    return metadata;
  }

  /** The writable actions the caller may use, with their fields. */
  async determineActions(
    request: Request,
    view: any,
  ): Promise<Record<string, Record<string, FieldDescription>>> {
    const actions: Record<string, Record<string, FieldDescription>> = {};
    const allowed: string[] = view.allowedMethods;
    for (const method of ['PUT', 'POST']) {
      if (!allowed.includes(method)) continue;
      // Permissions are asked as if the request used `method` (DRF's clone_request).
      const probe = Object.create(request, { method: { value: method } }) as Request;
      const original = view.request;
      try {
        view.request = probe;
        await view.checkPermissions(probe);
        if (method === 'PUT' && typeof view.getObject === 'function') await view.getObject();
      } catch (error) {
        if (error instanceof APIException) continue;
        throw error;
      } finally {
        view.request = original;
      }
      actions[method] = view.getSerializer().describeFields();
    }
    return actions;
  }
}
