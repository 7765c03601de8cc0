import { walkScreens } from './every-screen.ts';

/** Every screen signed out, and the consent screen of an account registered before consent was asked (every-screen.ts). */
walkScreens([{ role: 'guest' }, { role: 'unconsented' }]);
