import { walkScreens, isTaskScreen } from './every-screen.ts';

/** The worker's Home and task screens with their dialogs (every-screen.ts). */
walkScreens([{ role: 'worker', screens: isTaskScreen }]);
