import { screenshotTour } from './screenshots';

// The screenshot tour at 1024×768 (the other viewport has a file of its own, so both run side by side).
screenshotTour({ width: 1024, height: 768 });
