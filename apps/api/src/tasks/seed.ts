import { randomUUID } from 'node:crypto';
import type { TaskFields } from '@kamai/domain';
import { addSeedStep } from '../seed.ts';
import { createTask } from './commands.ts';

const BLUE = '#3B82F6';
const proof = 'Upload a clear screenshot that shows the finished step.';
const proofHi = 'पूरा किया गया चरण दिखाने वाला साफ़ स्क्रीनशॉट अपलोड करें।';

/**
 * Demo catalogue within the spec's ranges (section 9): rating ₹10-25 in 2-5 min, website ₹5-15 in
 * 1-3 min, game ₹15-50 in 5-15 min. Rewards in paise. Each in English
 * (the spec's wording) and Hindi. A rating task asks for an honest review and its
 * proof is the review's words, never a number of stars (the app says the reward does not depend on them).
 */
export const DEMO_TASKS: readonly Omit<TaskFields, 'maxCompletions' | 'expiresAt'>[] = [
  {
    title: 'Rate PhonePe on Google Play',
    description: 'Open PhonePe on the Play Store and give it an honest star rating with a one-line review of your UPI experience.',
    rewardPaise: 1500,
    estimatedTime: '3 min',
    estimatedMinutes: 3,
    taskType: 'rating',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.phonepe.app',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your published review (its words), with your Play Store name visible.',
    hi: {
      title: 'Google Play पर PhonePe को रेटिंग दें',
      description: 'Play Store पर PhonePe खोलें और अपने UPI अनुभव पर एक पंक्ति की समीक्षा के साथ ईमानदार स्टार रेटिंग दें।',
      proofInstructions: 'अपनी प्रकाशित समीक्षा (उसके शब्दों) का स्क्रीनशॉट, जिसमें आपका Play Store नाम दिखे।',
    },
  },
  {
    title: 'Review your last Swiggy order',
    description: 'Write a short, honest review of the restaurant and delivery of your most recent Swiggy order in the app.',
    rewardPaise: 1000,
    estimatedTime: '2 min',
    estimatedMinutes: 2,
    taskType: 'rating',
    taskUrl: 'https://www.swiggy.com/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your review after you submit it.',
    hi: {
      title: 'अपने पिछले Swiggy ऑर्डर की समीक्षा करें',
      description: 'ऐप में अपने सबसे हाल के Swiggy ऑर्डर के रेस्टोरेंट और डिलीवरी की छोटी, ईमानदार समीक्षा लिखें।',
      proofInstructions: 'समीक्षा भेजने के बाद उसका स्क्रीनशॉट।',
    },
  },
  {
    title: 'Rate Meesho and write a short review',
    description: 'Install or open Meesho, browse two categories, then write a two-line review of what you found on the Play Store.',
    rewardPaise: 2500,
    estimatedTime: '5 min',
    estimatedMinutes: 5,
    taskType: 'rating',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.meesho.supply',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of your review on the Play Store listing.',
    hi: {
      title: 'Meesho को रेटिंग दें और छोटी समीक्षा लिखें',
      description: 'Meesho इंस्टॉल करें या खोलें, दो श्रेणियाँ देखें, फिर Play Store पर जो मिला उसकी दो पंक्तियों की समीक्षा लिखें।',
      proofInstructions: 'Play Store लिस्टिंग पर अपनी समीक्षा का स्क्रीनशॉट।',
    },
  },
  {
    title: 'Visit the DigiLocker website',
    description: 'Open DigiLocker, read the "Issued Documents" section and find the list of partner departments.',
    rewardPaise: 500,
    estimatedTime: '1 min',
    estimatedMinutes: 1,
    taskType: 'website',
    taskUrl: 'https://www.digilocker.gov.in/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: proof,
    hi: {
      title: 'DigiLocker वेबसाइट देखें',
      description: 'DigiLocker खोलें, "Issued Documents" भाग पढ़ें और साझेदार विभागों की सूची ढूँढें।',
      proofInstructions: proofHi,
    },
  },
  {
    title: 'Browse the IRCTC tourism packages',
    description: 'Visit IRCTC Tourism and open any Bharat Gaurav train package to see its itinerary.',
    rewardPaise: 1000,
    estimatedTime: '2 min',
    estimatedMinutes: 2,
    taskType: 'website',
    taskUrl: 'https://www.irctctourism.com/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the package itinerary page.',
    hi: {
      title: 'IRCTC पर्यटन पैकेज देखें',
      description: 'IRCTC Tourism पर जाएँ और किसी भी भारत गौरव ट्रेन पैकेज का यात्रा कार्यक्रम खोलें।',
      proofInstructions: 'पैकेज के यात्रा कार्यक्रम वाले पेज का स्क्रीनशॉट।',
    },
  },
  {
    title: 'Explore MyGov and vote in a poll',
    description: 'Visit MyGov, open the "Polls & Surveys" section and take part in any open poll.',
    rewardPaise: 1500,
    estimatedTime: '3 min',
    estimatedMinutes: 3,
    taskType: 'website',
    taskUrl: 'https://www.mygov.in/',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the poll after you have voted.',
    hi: {
      title: 'MyGov देखें और किसी पोल में वोट करें',
      description: 'MyGov पर जाएँ, "Polls & Surveys" भाग खोलें और किसी भी खुले पोल में हिस्सा लें।',
      proofInstructions: 'वोट देने के बाद पोल का स्क्रीनशॉट।',
    },
  },
  {
    title: 'Play Ludo King: win one match',
    description: 'Download Ludo King and win one online or computer match.',
    rewardPaise: 3000,
    estimatedTime: '10 min',
    estimatedMinutes: 10,
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.ludo.king',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the winning screen.',
    hi: {
      title: 'Ludo King खेलें: एक मैच जीतें',
      description: 'Ludo King डाउनलोड करें और एक ऑनलाइन या कंप्यूटर मैच जीतें।',
      proofInstructions: 'जीत वाली स्क्रीन का स्क्रीनशॉट।',
    },
  },
  {
    title: 'Reach level 5 in Candy Crush Saga',
    description: 'Install Candy Crush Saga and clear the first five levels.',
    rewardPaise: 2000,
    estimatedTime: '8 min',
    estimatedMinutes: 8,
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.king.candycrushsaga',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the level map showing level 5 cleared.',
    hi: {
      title: 'Candy Crush Saga में लेवल 5 तक पहुँचें',
      description: 'Candy Crush Saga इंस्टॉल करें और पहले पाँच लेवल पूरे करें।',
      proofInstructions: 'लेवल मैप का स्क्रीनशॉट जिसमें लेवल 5 पूरा दिखे।',
    },
  },
  {
    title: 'Finish a World Cricket Championship match',
    description: 'Download World Cricket Championship 3 and complete one quick T20 match against the computer.',
    rewardPaise: 5000,
    estimatedTime: '15 min',
    estimatedMinutes: 15,
    taskType: 'game',
    taskUrl: 'https://play.google.com/store/apps/details?id=com.nextwave.wcc3',
    isActive: true,
    iconColor: BLUE,
    requiresProof: true,
    proofInstructions: 'Screenshot of the match summary screen.',
    hi: {
      title: 'World Cricket Championship का एक मैच पूरा करें',
      description: 'World Cricket Championship 3 डाउनलोड करें और कंप्यूटर के ख़िलाफ़ एक छोटा T20 मैच पूरा करें।',
      proofInstructions: 'मैच सारांश स्क्रीन का स्क्रीनशॉट।',
    },
  },
];

addSeedStep(async (store, accounts, now) => {
  const by = accounts.admin ?? 'seed';
  for (const task of DEMO_TASKS) await createTask(store, randomUUID(), { ...task, maxCompletions: null, expiresAt: null }, by, now);
});
