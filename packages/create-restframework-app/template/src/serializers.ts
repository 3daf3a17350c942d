import { HyperlinkedModelSerializer, ValidationError } from '@restframework/core';
import { Task } from './models.ts';

/** A task as JSON, with a `url` to itself; every field's rules come from the model. */
export class TaskSerializer extends HyperlinkedModelSerializer.with({
  model: Task,
  fields: ['url', 'id', 'title', 'done', 'priority', 'due_date', 'created'],
}) {
  /** One field's hook: DRF's validate_title. */
  validateTitle(value: string): string {
    if (value.toLowerCase() === 'untitled') {
      throw new ValidationError('Give the task a real title.');
    }
    return value;
  }
}
