import { defineModel, models } from '@restframework/core';

/** A thing to do: Django's `models.Model`, declared once (an `id` key is added for you). */
export const Task = defineModel({
  name: 'Task',
  fields: {
    title: models.CharField({ maxLength: 200 }),
    done: models.BooleanField({ default: false }),
    priority: models.CharField({
      maxLength: 10,
      choices: [
        ['low', 'Low'],
        ['normal', 'Normal'],
        ['high', 'High'],
      ],
      default: 'normal',
    }),
    due_date: models.DateField({ null: true, blank: true }),
    created: models.DateTimeField({ autoNowAdd: true }),
  },
  ordering: ['id'],
});

/** Every model of the service, for `db.migrate`. */
export const ALL_MODELS = [Task];
