import { ModelViewSet, type QuerySet } from '@restframework/core';
import { OrderingFilter } from '@restframework/tricks';
import { Task } from './models.ts';
import { TaskSerializer } from './serializers.ts';

/** list, create, retrieve, update, partial update and destroy of tasks. */
export class TaskViewSet extends ModelViewSet {
  static override description = 'Things to do.';
  override queryset = Task.objects.all();
  override serializerClass = TaskSerializer;
  override filterBackends = [OrderingFilter];
  /** The names clients may send in ?ordering=, each mapped to one path or a list of paths. */
  orderingFields = {
    title: 'title',
    due: 'due_date',
    schedule: ['done', 'due_date'],
  };
  /** The order when the client asks for none. */
  ordering = ['id'];

  /** `?done=true` or `?done=false` narrows the list (DRF's get_queryset). */
  override getQueryset(): QuerySet<typeof Task> {
    const done = this.request.queryParam('done');
    const tasks = super.getQueryset();
    if (done === 'true' || done === 'false') return tasks.filter({ done: done === 'true' });
    return tasks;
  }
}
