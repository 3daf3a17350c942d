/**
 * The bookstore's users, groups, permissions, tokens and sessions, around its `User` model.
 * @module
 */
import { createAuth } from '@restframework/core';
import { User } from './models/user.ts';

export const auth = createAuth({ userModel: User });

/** The tables of `auth` besides `User` (which `ALL_MODELS` lists with the spec's models). */
export const AUTH_MODELS = auth.models.filter((model) => model !== User);
