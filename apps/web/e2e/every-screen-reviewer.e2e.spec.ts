import { walkScreens } from './every-screen.ts';

/** The reviewer's screens (every-screen.ts). */
walkScreens([{ role: 'reviewer' }]);
