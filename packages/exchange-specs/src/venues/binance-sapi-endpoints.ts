/**
 * The /sapi endpoints of `binance-sapi` and the documentation pages that state their weights: one
 * line per endpoint, grouped by page.
 */
import type { CostRule, EndpointSpec, Provenance, Source } from '../venue-spec.js';

/** How the endpoint pages were read. */
const SDK_AT = "the page's text as Binance's official SDK carries it, generated from the page (binance/binance-connector-python, commit 29da329, 2026-08-21); compared with binance/binance-connector-js (commit a9de9a9, 2026-07-24), which is older where they differ";

const CATALOG = 'https://developers.binance.com/en/docs/catalog';

/** The documentation pages that state the weights, by key (the key is also the spec's source id). */
const PAGES = {
  'wallet-capital': `${CATALOG}/core-trading-wallet/api/rest-api/capital`,
  'wallet-asset': `${CATALOG}/core-trading-wallet/api/rest-api/asset`,
  'wallet-account': `${CATALOG}/core-trading-wallet/api/rest-api/account`,
  'wallet-others': `${CATALOG}/core-trading-wallet/api/rest-api/others`,
  'sub-account-management': `${CATALOG}/vip-and-institutional-sub-account/api/rest-api/account-management`,
  'sub-asset-management': `${CATALOG}/vip-and-institutional-sub-account/api/rest-api/asset-management`,
  'sub-api-management': `${CATALOG}/vip-and-institutional-sub-account/api/rest-api/api-management`,
  'sub-managed-sub-account': `${CATALOG}/vip-and-institutional-sub-account/api/rest-api/managed-sub-account`,
  'margin-account': `${CATALOG}/core-trading-margin-trading/api/rest-api/account`,
  'margin-borrow-repay': `${CATALOG}/core-trading-margin-trading/api/rest-api/borrow-repay`,
  'margin-market-data': `${CATALOG}/core-trading-margin-trading/api/rest-api/market-data`,
  'margin-trade': `${CATALOG}/core-trading-margin-trading/api/rest-api/trade`,
  'margin-transfer': `${CATALOG}/core-trading-margin-trading/api/rest-api/transfer`,
  'margin-user-data-stream': `${CATALOG}/core-trading-margin-trading/api/rest-api/user-data-stream`,
  'earn-flexible-locked': `${CATALOG}/investment-and-services-simple-earn/api/rest-api/flexible-locked`,
  'earn-bfusd': `${CATALOG}/investment-and-services-simple-earn/api/rest-api/bfusd`,
  'earn-rwusd': `${CATALOG}/investment-and-services-simple-earn/api/rest-api/rwusd`,
} as const;

/** A page of {@link PAGES}. */
export type SapiPage = keyof typeof PAGES;

/** The endpoint pages as spec sources (read 2026-12-01). */
export const SAPI_PAGE_SOURCES: Readonly<Record<SapiPage, Source>> = Object.fromEntries(Object.entries(PAGES).map(([k, url]) => [k, { url, retrieved: '2026-12-01', note: SDK_AT }])) as Record<SapiPage, Source>;

/** Which limit an endpoint is marked with: its own IP weight or its own UID weight. */
type Limit = 'ip' | 'uid';

/** `[method, path, limit, weight, page, the endpoint's title on the page]`: the page says "Weight(IP): n" or "Weight(UID): n". */
type Row = readonly [EndpointSpec['method'], string, Limit, number, SapiPage, string];

const BUCKET: Readonly<Record<Limit, string>> = { ip: 'ip_weight', uid: 'uid_weight' };
const LABEL: Readonly<Record<Limit, string>> = { ip: 'IP', uid: 'UID' };

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

/** The endpoint id: method and path, which is also the partition value of its own limits. */
function id(method: string, path: string): string {
  return `${method} ${path}`;
}

function cost(limit: Limit, value: number): CostRule {
  return { bucket: BUCKET[limit], cost: { kind: 'constant', value } };
}

/**
 * The /sapi endpoints bots use, each with the single weight its page states and whether it is IP-
 * or UID-limited. Parameter-dependent weights and endpoints limited on both are in
 * {@link SPECIAL} below.
 */
const ROWS: readonly Row[] = [
  // wallet-capital
  ['GET', '/sapi/v1/capital/config/getall', 'ip', 10, 'wallet-capital', "All Coins' Information (USER_DATA)"],
  ['GET', '/sapi/v1/capital/deposit/address', 'ip', 10, 'wallet-capital', 'Deposit Address(supporting network) (USER_DATA)'],
  ['GET', '/sapi/v1/capital/deposit/address/list', 'ip', 10, 'wallet-capital', 'Fetch deposit address list with network (USER_DATA)'],
  ['POST', '/sapi/v1/capital/deposit/credit-apply', 'ip', 1, 'wallet-capital', 'One click arrival deposit apply (for expired address deposit) (USER_DATA)'],
  ['GET', '/sapi/v1/capital/deposit/hisrec', 'ip', 1, 'wallet-capital', 'Deposit History (supporting network) (USER_DATA)'],
  ['GET', '/sapi/v1/capital/withdraw/address/list', 'ip', 10, 'wallet-capital', 'Fetch withdraw address list (USER_DATA)'],
  ['POST', '/sapi/v1/capital/withdraw/apply', 'uid', 900, 'wallet-capital', 'Withdraw (USER_DATA)'],
  ['GET', '/sapi/v1/capital/withdraw/quota', 'ip', 10, 'wallet-capital', 'Fetch withdraw quota (USER_DATA)'],
  // wallet-asset
  ['GET', '/sapi/v1/asset/assetDetail', 'ip', 1, 'wallet-asset', 'Asset Detail (USER_DATA)'],
  ['GET', '/sapi/v1/asset/assetDividend', 'ip', 10, 'wallet-asset', 'Asset Dividend Record (USER_DATA)'],
  ['GET', '/sapi/v1/asset/custody/transfer-history', 'ip', 60, 'wallet-asset', 'Query User Delegation History(For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/asset/dribblet', 'ip', 1, 'wallet-asset', 'DustLog (USER_DATA)'],
  ['POST', '/sapi/v1/asset/dust', 'uid', 10, 'wallet-asset', 'Dust Transfer (USER_DATA)'],
  ['POST', '/sapi/v1/asset/dust-btc', 'ip', 1, 'wallet-asset', 'Get Assets That Can Be Converted Into BNB (USER_DATA)'],
  ['POST', '/sapi/v1/asset/dust-convert/convert', 'uid', 10, 'wallet-asset', 'Dust Convert (USER_DATA)'],
  ['POST', '/sapi/v1/asset/dust-convert/query-convertible-assets', 'ip', 1, 'wallet-asset', 'Dust Convertible Assets (USER_DATA)'],
  ['POST', '/sapi/v1/asset/get-funding-asset', 'ip', 1, 'wallet-asset', 'Funding Wallet (USER_DATA)'],
  ['GET', '/sapi/v1/asset/ledger-transfer/cloud-mining/queryByPage', 'uid', 600, 'wallet-asset', 'Get Cloud-Mining payment and refund history (USER_DATA)'],
  ['GET', '/sapi/v1/asset/tradeFee', 'ip', 1, 'wallet-asset', 'Trade Fee (USER_DATA)'],
  ['GET', '/sapi/v1/asset/transfer', 'ip', 1, 'wallet-asset', 'Query User Universal Transfer History (USER_DATA)'],
  ['POST', '/sapi/v1/asset/transfer', 'uid', 300, 'wallet-asset', 'User Universal Transfer (USER_DATA)'],
  ['GET', '/sapi/v1/asset/wallet/balance', 'ip', 60, 'wallet-asset', 'Query User Wallet Balance (USER_DATA)'],
  ['POST', '/sapi/v1/bnbBurn', 'ip', 1, 'wallet-asset', 'Toggle BNB Burn On Spot Trade And Margin Interest (USER_DATA)'],
  ['GET', '/sapi/v1/spot/asset/tags', 'ip', 100, 'wallet-asset', 'Get Spot Asset Tags (MARKET_DATA)'],
  ['GET', '/sapi/v1/spot/open-symbol-list', 'ip', 100, 'wallet-asset', 'Get Open Symbol List (MARKET_DATA)'],
  ['POST', '/sapi/v3/asset/getUserAsset', 'ip', 5, 'wallet-asset', 'User Asset (USER_DATA)'],
  // wallet-account
  ['GET', '/sapi/v1/account/apiRestrictions', 'ip', 1, 'wallet-account', 'Get API Key Permission (USER_DATA)'],
  ['GET', '/sapi/v1/account/apiTradingStatus', 'ip', 1, 'wallet-account', 'Account API Trading Status (USER_DATA)'],
  ['POST', '/sapi/v1/account/disableFastWithdrawSwitch', 'ip', 1, 'wallet-account', 'Disable Fast Withdraw Switch (USER_DATA)'],
  ['POST', '/sapi/v1/account/enableFastWithdrawSwitch', 'ip', 1, 'wallet-account', 'Enable Fast Withdraw Switch (USER_DATA)'],
  ['GET', '/sapi/v1/account/info', 'ip', 1, 'wallet-account', 'Account info (USER_DATA)'],
  ['GET', '/sapi/v1/account/status', 'ip', 1, 'wallet-account', 'Account Status (USER_DATA)'],
  ['GET', '/sapi/v1/accountSnapshot', 'ip', 2400, 'wallet-account', 'Daily Account Snapshot (USER_DATA)'],
  // wallet-others
  ['GET', '/sapi/v1/spot/delist-schedule', 'ip', 100, 'wallet-others', 'Get Spot Delist Schedule (MARKET_DATA)'],
  ['GET', '/sapi/v1/system/status', 'ip', 1, 'wallet-others', 'System Status'],
  // sub-account-management
  ['POST', '/sapi/v1/sub-account/eoptions/enable', 'ip', 1, 'sub-account-management', 'Enable Options for Sub-account (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/futures/enable', 'ip', 1, 'sub-account-management', 'Enable Futures for Sub-account (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/futures/positionRisk', 'ip', 10, 'sub-account-management', 'Get Futures Position-Risk of Sub-account (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/list', 'ip', 1, 'sub-account-management', 'Query Sub-account List (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/status', 'ip', 10, 'sub-account-management', "Get Sub-account's Status on Margin Or Futures (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v1/sub-account/transaction-statistics', 'ip', 60, 'sub-account-management', 'Query Sub-account Transaction Statistics (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/virtualSubAccount', 'ip', 1, 'sub-account-management', 'Create a Virtual Sub-account (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v2/sub-account/futures/positionRisk', 'ip', 1, 'sub-account-management', 'Get Futures Position-Risk of Sub-account V2 (For Master Account) (USER_DATA)'],
  // sub-asset-management
  ['GET', '/sapi/v1/capital/deposit/subAddress', 'ip', 1, 'sub-asset-management', 'Get Sub-account Deposit Address (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/capital/deposit/subHisrec', 'ip', 1, 'sub-asset-management', 'Get Sub-account Deposit History (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/futures/account', 'ip', 10, 'sub-asset-management', "Get Detail on Sub-account's Futures Account (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v1/sub-account/futures/accountSummary', 'ip', 1, 'sub-asset-management', "Get Summary of Sub-account's Futures Account (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v1/sub-account/futures/internalTransfer', 'ip', 1, 'sub-asset-management', 'Query Sub-account Futures Asset Transfer History (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/futures/internalTransfer', 'ip', 1, 'sub-asset-management', 'Sub-account Futures Asset Transfer (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/futures/move-position', 'ip', 1, 'sub-asset-management', 'Get Move Position History for Sub-account (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/futures/move-position', 'ip', 1, 'sub-asset-management', 'Move Position for Sub-account (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/futures/transfer', 'ip', 1, 'sub-asset-management', 'Futures Transfer for Sub-account (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/margin/account', 'ip', 10, 'sub-asset-management', "Get Detail on Sub-account's Margin Account (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v1/sub-account/margin/accountSummary', 'ip', 10, 'sub-asset-management', "Get Summary of Sub-account's Margin Account (For Master Account) (USER_DATA)"],
  ['POST', '/sapi/v1/sub-account/margin/transfer', 'ip', 1, 'sub-asset-management', 'Margin Transfer for Sub-account (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/spotSummary', 'ip', 1, 'sub-asset-management', 'Query Sub-account Spot Assets Summary (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/sub/transfer/history', 'ip', 1, 'sub-asset-management', 'Query Sub-account Spot Asset Transfer History (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/transfer/subToMaster', 'ip', 1, 'sub-asset-management', 'Transfer to Master (For Sub-account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/transfer/subToSub', 'ip', 1, 'sub-asset-management', 'Transfer to Sub-account of Same Master (For Sub-account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/transfer/subUserHistory', 'ip', 1, 'sub-asset-management', 'Sub-account Transfer History (For Sub-account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/universalTransfer', 'ip', 1, 'sub-asset-management', 'Query Universal Transfer History (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v2/sub-account/futures/account', 'ip', 1, 'sub-asset-management', "Get Detail on Sub-account's Futures Account V2 (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v2/sub-account/futures/accountSummary', 'ip', 10, 'sub-asset-management', "Get Summary of Sub-account's Futures Account V2 (For Master Account) (USER_DATA)"],
  ['GET', '/sapi/v3/sub-account/assets', 'uid', 60, 'sub-asset-management', 'Query Sub-account Assets (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v4/sub-account/assets', 'uid', 60, 'sub-asset-management', 'Query Sub-account Assets V4 (For Master Account) (USER_DATA)'],
  // sub-api-management
  ['DELETE', '/sapi/v1/sub-account/subAccountApi', 'uid', 3000, 'sub-api-management', 'Delete Sub-account API Key (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/subAccountApi', 'uid', 3000, 'sub-api-management', 'Query Sub-account API Key (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/subAccountApi', 'uid', 3000, 'sub-api-management', 'Create Sub-account API Key (For Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/sub-account/subAccountApi/ipRestriction', 'uid', 3000, 'sub-api-management', 'Get IP Restriction for a Sub-account API Key (For Master Account) (USER_DATA)'],
  ['DELETE', '/sapi/v1/sub-account/subAccountApi/ipRestriction/ipList', 'uid', 3000, 'sub-api-management', 'Delete IP List For a Sub-account API Key (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/sub-account/subAccountApiPermission', 'uid', 3000, 'sub-api-management', 'Modify Sub-account API Key Permission (For Master Account) (USER_DATA)'],
  ['POST', '/sapi/v2/sub-account/subAccountApi/ipRestriction', 'uid', 3000, 'sub-api-management', 'Add IP Restriction for Sub-Account API key (For Master Account) (USER_DATA)'],
  // sub-managed-sub-account
  ['GET', '/sapi/v1/managed-subaccount/accountSnapshot', 'ip', 2400, 'sub-managed-sub-account', 'Query Managed Sub-account Snapshot (For Investor Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/asset', 'ip', 1, 'sub-managed-sub-account', 'Query Managed Sub-account Asset Details (For Investor Master Account) (USER_DATA)'],
  ['POST', '/sapi/v1/managed-subaccount/deposit', 'ip', 1, 'sub-managed-sub-account', 'Deposit Assets Into The Managed Sub-account (For Investor Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/deposit/address', 'uid', 1, 'sub-managed-sub-account', 'Get Managed Sub-account Deposit Address (For Investor Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/fetch-future-asset', 'uid', 60, 'sub-managed-sub-account', 'Query Managed Sub-account Futures Asset Details (For Investor Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/info', 'uid', 60, 'sub-managed-sub-account', 'Query Managed Sub-account List (For Investor) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/marginAsset', 'ip', 1, 'sub-managed-sub-account', 'Query Managed Sub-account Margin Asset Details (For Investor Master Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/query-trans-log', 'uid', 60, 'sub-managed-sub-account', 'Query Managed Sub Account Transfer Log (For Trading Team Sub Account) (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/queryTransLogForInvestor', 'ip', 1, 'sub-managed-sub-account', 'Query Managed Sub Account Transfer Log For Investor Master Account (USER_DATA)'],
  ['GET', '/sapi/v1/managed-subaccount/queryTransLogForTradeParent', 'uid', 60, 'sub-managed-sub-account', 'Query Managed Sub Account Transfer Log For Trading Team Master Account (USER_DATA)'],
  ['POST', '/sapi/v1/managed-subaccount/withdraw', 'ip', 1, 'sub-managed-sub-account', 'Withdrawl Assets From The Managed Sub-account (For Investor Master Account) (USER_DATA)'],
  // margin-account
  ['GET', '/sapi/v1/bnbBurn', 'ip', 1, 'margin-account', 'Get BNB Burn Status (USER_DATA)'],
  ['GET', '/sapi/v1/margin/account', 'ip', 10, 'margin-account', 'Query Cross Margin Account Details (USER_DATA)'],
  ['GET', '/sapi/v1/margin/capital-flow', 'ip', 100, 'margin-account', 'Query Cross Isolated Margin Capital Flow (USER_DATA)'],
  ['DELETE', '/sapi/v1/margin/isolated/account', 'uid', 300, 'margin-account', 'Disable Isolated Margin Account (TRADE)'],
  ['GET', '/sapi/v1/margin/isolated/account', 'ip', 10, 'margin-account', 'Query Isolated Margin Account Info (USER_DATA)'],
  ['POST', '/sapi/v1/margin/isolated/account', 'uid', 300, 'margin-account', 'Enable Isolated Margin Account (TRADE)'],
  ['GET', '/sapi/v1/margin/tradeCoeff', 'ip', 10, 'margin-account', 'Get Summary of Margin account (USER_DATA)'],
  // margin-borrow-repay
  ['GET', '/sapi/v1/margin/borrow-repay', 'ip', 10, 'margin-borrow-repay', 'Query borrow/repay records in Margin account (USER_DATA)'],
  ['POST', '/sapi/v1/margin/borrow-repay', 'uid', 1500, 'margin-borrow-repay', 'Margin account borrow/repay (USER_DATA)'],
  ['GET', '/sapi/v1/margin/interestHistory', 'ip', 1, 'margin-borrow-repay', 'Get Interest History (USER_DATA)'],
  ['GET', '/sapi/v1/margin/interestRateHistory', 'ip', 1, 'margin-borrow-repay', 'Query Margin Interest Rate History (USER_DATA)'],
  ['GET', '/sapi/v1/margin/maxBorrowable', 'ip', 50, 'margin-borrow-repay', 'Query Max Borrow (USER_DATA)'],
  ['GET', '/sapi/v1/margin/next-hourly-interest-rate', 'ip', 100, 'margin-borrow-repay', 'Get future hourly interest rate (USER_DATA)'],
  // margin-market-data
  ['GET', '/sapi/v1/margin/allAssets', 'ip', 1, 'margin-market-data', 'Get All Margin Assets (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/allPairs', 'ip', 1, 'margin-market-data', 'Get All Cross Margin Pairs (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/available-inventory', 'uid', 50, 'margin-market-data', 'Query Margin Available Inventory (USER_DATA)'],
  ['GET', '/sapi/v1/margin/crossMarginCollateralRatio', 'ip', 100, 'margin-market-data', 'Cross margin collateral ratio (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/delist-schedule', 'ip', 100, 'margin-market-data', 'Get Delist Schedule (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/isolated/allPairs', 'ip', 10, 'margin-market-data', 'Get All Isolated Margin Symbol (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/isolatedMarginTier', 'ip', 1, 'margin-market-data', 'Query Isolated Margin Tier Data (USER_DATA)'],
  ['GET', '/sapi/v1/margin/leverageBracket', 'ip', 1, 'margin-market-data', 'Query Liability Coin Leverage Bracket in Cross Margin Pro Mode (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/list-schedule', 'ip', 100, 'margin-market-data', 'Get list Schedule (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/priceIndex', 'ip', 10, 'margin-market-data', 'Query Margin PriceIndex (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/restricted-asset', 'ip', 1, 'margin-market-data', 'Get Margin Restricted Assets (MARKET_DATA)'],
  ['GET', '/sapi/v1/margin/risk-based-liquidation-ratio', 'ip', 1, 'margin-market-data', 'Get Margin Asset Risk-Based Liquidation Ratio (MARKET_DATA)'],
  // margin-trade
  ['GET', '/sapi/v1/margin/allOrderList', 'ip', 200, 'margin-trade', "Query Margin Account's all OCO (USER_DATA)"],
  ['GET', '/sapi/v1/margin/allOrders', 'ip', 200, 'margin-trade', "Query Margin Account's All Orders (USER_DATA)"],
  ['GET', '/sapi/v1/margin/api-key-list', 'uid', 1, 'margin-trade', 'Query Special key List(Low Latency Trading) (TRADE)'],
  ['DELETE', '/sapi/v1/margin/apiKey', 'uid', 1, 'margin-trade', 'Delete Special Key(Low-Latency Trading) (TRADE)'],
  ['GET', '/sapi/v1/margin/apiKey', 'uid', 1, 'margin-trade', 'Query Special key(Low Latency Trading) (TRADE)'],
  ['POST', '/sapi/v1/margin/apiKey', 'uid', 1, 'margin-trade', 'Create Special Key(Low-Latency Trading) (TRADE)'],
  ['PUT', '/sapi/v1/margin/apiKey/ip', 'uid', 1, 'margin-trade', 'Edit ip for Special Key(Low-Latency Trading) (TRADE)'],
  ['GET', '/sapi/v1/margin/exchange-small-liability', 'ip', 100, 'margin-trade', 'Get Small Liability Exchange Coin List (USER_DATA)'],
  ['POST', '/sapi/v1/margin/exchange-small-liability', 'uid', 3000, 'margin-trade', 'Small Liability Exchange (MARGIN)'],
  ['GET', '/sapi/v1/margin/exchange-small-liability-history', 'uid', 100, 'margin-trade', 'Get Small Liability Exchange History (USER_DATA)'],
  ['POST', '/sapi/v1/margin/exit-special-key-mode', 'uid', 10, 'margin-trade', 'Exit Special Key Mode (TRADE)'],
  ['GET', '/sapi/v1/margin/forceLiquidationRec', 'ip', 1, 'margin-trade', 'Get Force Liquidation Record (USER_DATA)'],
  ['GET', '/sapi/v1/margin/liquidation-loan', 'uid', 100, 'margin-trade', 'Query Liquidation Loan (USER_DATA)'],
  ['POST', '/sapi/v1/margin/liquidation-loan/repay', 'uid', 100, 'margin-trade', 'Liquidation Loan Repay (MARGIN)'],
  ['GET', '/sapi/v1/margin/liquidation-loan/repay-history', 'uid', 100, 'margin-trade', 'Query Liquidation Loan Repay History (USER_DATA)'],
  ['POST', '/sapi/v1/margin/manual-liquidation', 'uid', 3000, 'margin-trade', 'Margin Manual Liquidation (TRADE)'],
  ['GET', '/sapi/v1/margin/myPreventedMatches', 'ip', 10, 'margin-trade', 'Query Prevented Matches (USER_DATA)'],
  ['GET', '/sapi/v1/margin/myTrades', 'ip', 10, 'margin-trade', "Query Margin Account's Trade List (USER_DATA)"],
  ['GET', '/sapi/v1/margin/openOrderList', 'ip', 10, 'margin-trade', "Query Margin Account's Open OCO (USER_DATA)"],
  ['DELETE', '/sapi/v1/margin/openOrders', 'ip', 1, 'margin-trade', 'Margin Account Cancel all Open Orders on a Symbol (TRADE)'],
  ['DELETE', '/sapi/v1/margin/order', 'ip', 10, 'margin-trade', 'Margin Account Cancel Order (TRADE)'],
  ['GET', '/sapi/v1/margin/order', 'ip', 10, 'margin-trade', "Query Margin Account's Order (USER_DATA)"],
  ['DELETE', '/sapi/v1/margin/orderList', 'uid', 1, 'margin-trade', 'Margin Account Cancel OCO (TRADE)'],
  ['GET', '/sapi/v1/margin/orderList', 'ip', 10, 'margin-trade', "Query Margin Account's OCO (USER_DATA)"],
  // margin-transfer
  ['GET', '/sapi/v1/margin/maxTransferable', 'ip', 50, 'margin-transfer', 'Query Max Transfer-Out Amount (USER_DATA)'],
  ['GET', '/sapi/v1/margin/transfer', 'ip', 1, 'margin-transfer', 'Get Cross Margin Transfer History (USER_DATA)'],
  // margin-user-data-stream
  ['DELETE', '/sapi/v1/margin/listen-key', 'uid', 3000, 'margin-user-data-stream', 'Close User Data Stream (USER_STREAM)'],
  ['POST', '/sapi/v1/margin/listen-key', 'uid', 1, 'margin-user-data-stream', 'Start User Data Stream (USER_STREAM)'],
  ['PUT', '/sapi/v1/margin/listen-key', 'uid', 1, 'margin-user-data-stream', 'Keepalive User Data Stream (USER_STREAM)'],
  // earn-flexible-locked
  ['GET', '/sapi/v1/simple-earn/account', 'ip', 150, 'earn-flexible-locked', 'Simple Account (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/history/collateralRecord', 'ip', 1, 'earn-flexible-locked', 'Get Collateral Record (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/history/rateHistory', 'ip', 150, 'earn-flexible-locked', 'Get Rate History (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/history/redemptionRecord', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Redemption Record (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/history/rewardsRecord', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Rewards History (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/history/subscriptionRecord', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Subscription Record (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/list', 'ip', 150, 'earn-flexible-locked', 'Get Simple Earn Flexible Product List (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/personalLeftQuota', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Personal Left Quota (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/flexible/position', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Product Position (USER_DATA)'],
  ['POST', '/sapi/v1/simple-earn/flexible/redeem', 'ip', 1, 'earn-flexible-locked', 'Redeem Flexible Product (TRADE)'],
  ['POST', '/sapi/v1/simple-earn/flexible/setAutoSubscribe', 'ip', 150, 'earn-flexible-locked', 'Set Flexible Auto Subscribe (USER_DATA)'],
  ['POST', '/sapi/v1/simple-earn/flexible/subscribe', 'ip', 1, 'earn-flexible-locked', 'Subscribe Flexible Product (TRADE)'],
  ['GET', '/sapi/v1/simple-earn/flexible/subscriptionPreview', 'ip', 150, 'earn-flexible-locked', 'Get Flexible Subscription Preview (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/history/redemptionRecord', 'ip', 150, 'earn-flexible-locked', 'Get Locked Redemption Record (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/history/rewardsRecord', 'ip', 150, 'earn-flexible-locked', 'Get Locked Rewards History (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/history/subscriptionRecord', 'ip', 150, 'earn-flexible-locked', 'Get Locked Subscription Record (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/list', 'ip', 150, 'earn-flexible-locked', 'Get Simple Earn Locked Product List (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/personalLeftQuota', 'ip', 150, 'earn-flexible-locked', 'Get Locked Personal Left Quota (USER_DATA)'],
  ['GET', '/sapi/v1/simple-earn/locked/position', 'ip', 150, 'earn-flexible-locked', 'Get Locked Product Position (USER_DATA)'],
  ['POST', '/sapi/v1/simple-earn/locked/redeem', 'ip', 1, 'earn-flexible-locked', 'Redeem Locked Product (TRADE)'],
  ['POST', '/sapi/v1/simple-earn/locked/setAutoSubscribe', 'ip', 150, 'earn-flexible-locked', 'Set Locked Auto Subscribe (USER_DATA)'],
  ['POST', '/sapi/v1/simple-earn/locked/setRedeemOption', 'ip', 50, 'earn-flexible-locked', 'Set Locked Product Redeem Option (USER_DATA)'],
  ['POST', '/sapi/v1/simple-earn/locked/subscribe', 'ip', 1, 'earn-flexible-locked', 'Subscribe Locked Product (TRADE)'],
  ['GET', '/sapi/v1/simple-earn/locked/subscriptionPreview', 'ip', 150, 'earn-flexible-locked', 'Get Locked Subscription Preview (USER_DATA)'],
  // earn-bfusd
  ['GET', '/sapi/v1/bfusd/account', 'ip', 150, 'earn-bfusd', 'Get BFUSD Account (USER_DATA)'],
  ['GET', '/sapi/v1/bfusd/history/rateHistory', 'ip', 150, 'earn-bfusd', 'Get BFUSD Rate History (USER_DATA)'],
  ['GET', '/sapi/v1/bfusd/history/redemptionHistory', 'ip', 150, 'earn-bfusd', 'Get BFUSD Redemption History (USER_DATA)'],
  ['GET', '/sapi/v1/bfusd/history/rewardsHistory', 'ip', 150, 'earn-bfusd', 'Get BFUSD Rewards History (USER_DATA)'],
  ['GET', '/sapi/v1/bfusd/history/subscriptionHistory', 'ip', 150, 'earn-bfusd', 'Get BFUSD subscription history (USER_DATA)'],
  ['GET', '/sapi/v1/bfusd/quota', 'ip', 150, 'earn-bfusd', 'Get BFUSD Quota Details (USER_DATA)'],
  ['POST', '/sapi/v1/bfusd/redeem', 'ip', 150, 'earn-bfusd', 'Redeem BFUSD (TRADE)'],
  ['POST', '/sapi/v1/bfusd/subscribe', 'ip', 150, 'earn-bfusd', 'Subscribe BFUSD (TRADE)'],
  // earn-rwusd
  ['GET', '/sapi/v1/rwusd/account', 'ip', 150, 'earn-rwusd', 'Get RWUSD Account (USER_DATA)'],
  ['GET', '/sapi/v1/rwusd/history/rateHistory', 'ip', 150, 'earn-rwusd', 'Get RWUSD Rate History (USER_DATA)'],
  ['GET', '/sapi/v1/rwusd/history/redemptionHistory', 'ip', 150, 'earn-rwusd', 'Get RWUSD Redemption History (USER_DATA)'],
  ['GET', '/sapi/v1/rwusd/history/rewardsHistory', 'ip', 150, 'earn-rwusd', 'Get RWUSD Rewards History (USER_DATA)'],
  ['GET', '/sapi/v1/rwusd/history/subscriptionHistory', 'ip', 150, 'earn-rwusd', 'Get RWUSD subscription history (USER_DATA)'],
  ['GET', '/sapi/v1/rwusd/quota', 'ip', 150, 'earn-rwusd', 'Get RWUSD Quota Details (USER_DATA)'],
  ['POST', '/sapi/v1/rwusd/redeem', 'ip', 150, 'earn-rwusd', 'Redeem RWUSD (TRADE)'],
  ['POST', '/sapi/v1/rwusd/subscribe', 'ip', 150, 'earn-rwusd', 'Subscribe RWUSD (TRADE)'],
];

/** "Weight: 6(UID) or 1500(UID) when sideEffectType is MARGIN_BUY or AUTO_BORROW_REPAY". */
function marginOrder(path: string, title: string): EndpointSpec {
  return {
    id: id('POST', path),
    method: 'POST',
    path,
    auth: 'private',
    costs: [
      {
        bucket: 'uid_weight',
        cost: { kind: 'presence', param: 'sideEffectType', present: { kind: 'lookup', param: 'sideEffectType', values: { MARGIN_BUY: 1500, AUTO_BORROW_REPAY: 1500 }, otherwise: 6 }, absent: 6 },
      },
    ],
    provenance: doc('margin-trade', `${title} … Weight: 6(UID) or 1500(UID) when sideEffectType is MARGIN_BUY or AUTO_BORROW_REPAY`),
    note: 'an order that borrows (MARGIN_BUY) or borrows and repays (AUTO_BORROW_REPAY) weighs 1500 on its own UID limit, any other 6',
  };
}

/** The endpoints whose weight depends on a parameter, that carry two limits, or whose page is unclear. */
const SPECIAL: readonly EndpointSpec[] = [
  marginOrder('/sapi/v1/margin/order', 'Margin Account New Order (TRADE)'),
  marginOrder('/sapi/v1/margin/order/oco', 'Margin Account New OCO (TRADE)'),
  marginOrder('/sapi/v1/margin/order/oto', 'Margin Account New OTO (TRADE)'),
  marginOrder('/sapi/v1/margin/order/otoco', 'Margin Account New OTOCO (TRADE)'),
  {
    id: id('GET', '/sapi/v1/margin/openOrders'),
    method: 'GET',
    path: '/sapi/v1/margin/openOrders',
    auth: 'private',
    costs: [{ ...cost('ip', 10), when: { param: 'symbol', notIn: [] } }],
    provenance: doc(
      'margin-trade',
      "Query Margin Account's Open Orders (USER_DATA) … Weight(IP): 10 … If the symbol is not sent, orders for all symbols will be returned in an array. … When all symbols are returned, the number of requests counted against the rate limiter is equal to the number of symbols currently trading on the exchange.",
    ),
    note: 'without symbol the page counts one request per symbol trading, a number this spec cannot know: such a request is refused (missing_parameter), never priced at 10; send symbol',
  },
  {
    id: id('GET', '/sapi/v1/margin/crossMarginData'),
    method: 'GET',
    path: '/sapi/v1/margin/crossMarginData',
    auth: 'private',
    costs: [{ bucket: 'ip_weight', cost: { kind: 'presence', param: 'coin', present: 1, absent: 5 } }],
    provenance: doc('margin-account', 'Query Cross Margin Fee Data (USER_DATA) … Weight: 1 when coin is specified;(IP) 5 when the coin parameter is omitted(IP)'),
  },
  {
    id: id('GET', '/sapi/v1/margin/isolatedMarginData'),
    method: 'GET',
    path: '/sapi/v1/margin/isolatedMarginData',
    auth: 'private',
    costs: [{ bucket: 'ip_weight', cost: { kind: 'presence', param: 'symbol', present: 1, absent: 10 } }],
    provenance: doc('margin-account', 'Query Isolated Margin Fee Data (USER_DATA) … Weight: 1 when a single is specified;(IP) 10 when the symbol parameter is omitted(IP)'),
  },
  {
    id: id('POST', '/sapi/v1/sub-account/universalTransfer'),
    method: 'POST',
    path: '/sapi/v1/sub-account/universalTransfer',
    auth: 'private',
    costs: [cost('ip', 1), cost('uid', 360)],
    provenance: doc('sub-asset-management', 'Universal Transfer (For Master Account) (USER_DATA) … Weight(IP): 1 Weight(UID): 360'),
    note: 'the only endpoint here marked with both limits: it is charged on its own IP limit and on its own UID limit',
  },
  {
    id: id('GET', '/sapi/v1/capital/withdraw/history'),
    method: 'GET',
    path: '/sapi/v1/capital/withdraw/history',
    auth: 'private',
    costs: [cost('uid', 18000)],
    provenance: { source: 'wallet-capital', confidence: 'uncertain', quote: 'Withdraw History (supporting network) (USER_DATA) … Weight(UID): 18000 (10 requests per second)' },
    note: 'the page gives the weight and "10 requests per second", and the /sapi rules say a limit is per minute "or per second limit if specified explicitly": a per-second UID limit of 180,000 would admit 10 a second, but the page does not say which window applies. 18,000 is charged on the endpoint\'s own per-minute UID limit (10 a minute): the safe reading',
  },
];

/** Every /sapi endpoint of the spec. */
export const sapiEndpoints: readonly EndpointSpec[] = [
  ...ROWS.map(
    ([method, path, limit, weight, page, title]): EndpointSpec => ({
      id: id(method, path),
      method,
      path,
      auth: path === '/sapi/v1/system/status' ? 'public' : 'private',
      costs: [cost(limit, weight)],
      provenance: doc(page, `${title} … Weight(${LABEL[limit]}): ${weight}`),
    }),
  ),
  ...SPECIAL,
];
