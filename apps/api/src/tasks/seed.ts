import { randomUUID } from 'node:crypto';
import type { TaskFields } from '@kamai/domain';
import { addSeedStep } from '../seed.ts';
import { createTask } from './commands.ts';

const BLUE = '#3B82F6';
const proof = 'Upload a clear screenshot that shows the finished step.';

/**
 * Demo catalogue within the spec's ranges (section 9): rating ₹10-25 in 2-5 min, website ₹5-15 in
 * 1-3 min, game ₹15-50 in 5-15 min. Rewards in paise. A rating task asks for an honest review and its
 * proof is the review's words, never a number of stars (the app says the reward does not depend on them).
 */
export const DEMO_TASKS: readonly Omit<TaskFields, 'maxCompletions' | 'expiresAt'>[] = [
  {
    title: 'Rate PhonePe on Google Play',
    description: 'Open PhonePe on the Play Store and give it an honest star rating with a one-line review of your UPI experience.',
    rewardPaise: 1500,
    estimatedTime: '3 min',
    taskType: 'rating',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your published review (its words), with your Play Store name visible.',
  },
  {
    title: 'Review your last Swiggy order',
    description: 'Write a short, honest review of the restaurant and delivery of your most recent Swiggy order in the app.',
    rewardPaise: 1000,
    estimatedTime: '2 min',
    taskType: 'rating',
    taskUrl: 'https://www.swiggy.com/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your review after you submit it.',
  },
  {
    title: 'Rate Meesho and write a short review',
    description: 'Install or open Meesho, browse two categories, then write a two-line review of what you found on the Play Store.',
    rewardPaise: 2500,
    estimatedTime: '5 min',
    taskType: 'rating',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.meesho.supply',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your review on the Play Store listing.',
  },
  {
    title: 'Visit the DigiLocker website',
    description: 'Open DigiLocker, read the "Issued Documents" section and find the list of partner departments.',
    rewardPaise: 500,
    estimatedTime: '1 min',
    taskType: 'website',
    taskUrl: 'https://www.digilocker.gov.in/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: proof,
  },
  {
    title: 'Browse the IRCTC tourism packages',
    description: 'Visit IRCTC Tourism and open any Bharat Gaurav train package to see its itinerary.',
    rewardPaise: 1000,
    estimatedTime: '2 min',
    taskType: 'website',
    taskUrl: 'https://www.irctctourism.com/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the package itinerary page.',
  },
  {
    title: 'Explore MyGov and vote in a poll',
    description: 'Visit MyGov, open the "Polls & Surveys" section and take part in any open poll.',
    rewardPaise: 1500,
    estimatedTime: '3 min',
    taskType: 'website',
    taskUrl: 'https://www.mygov.in/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the poll after you have voted.',
  },
  {
    title: 'Play Ludo King: win one match',
    description: 'Download Ludo King and win one online or computer match.',
    rewardPaise: 3000,
    estimatedTime: '10 min',
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.ludo.king',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the winning screen.',
  },
  {
    title: 'Reach level 5 in Candy Crush Saga',
    description: 'Install Candy Crush Saga and clear the first five levels.',
    rewardPaise: 2000,
    estimatedTime: '8 min',
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.king.candycrushsaga',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the level map showing level 5 cleared.',
  },
  {
    title: 'Finish a World Cricket Championship match',
    description: 'Download World Cricket Championship 3 and complete one quick T20 match against the computer.',
    rewardPaise: 5000,
    estimatedTime: '15 min',
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.nextwave.wcc3',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the match summary screen.',
  },
];

addSeedStep(async (store, accounts, now) => {
  const by = accounts.admin ?? 'seed';
  for (const task of DEMO_TASKS) await createTask(store, randomUUID(), { ...task, maxCompletions: null, expiresAt: null }, by, now);
});
