// Profile canonicals, extension URLs and code systems the FHIR layer emits. Data, not code: a version bump of an
// implementation guide is an edit here (and in capability/), nowhere else.

/** The implementation guides we follow, with the version whose shapes we emit. */
export const IMPLEMENTATION_GUIDES = {
  usdf: { canonical: 'http://hl7.org/fhir/us/davinci-drug-formulary/ImplementationGuide/hl7.fhir.us.davinci-drug-formulary', version: '2.0.1' },
  dtr: { canonical: 'http://hl7.org/fhir/us/davinci-dtr/ImplementationGuide/hl7.fhir.us.davinci-dtr', version: '2.0.1' },
  pas: { canonical: 'http://hl7.org/fhir/us/davinci-pas/ImplementationGuide/hl7.fhir.us.davinci-pas', version: '2.2.1' },
  // CRD 2.0.1: the version CMS recommends and the public CRD server test kit checks; our coverage information is
  // emitted in its shape (docs/fhir.md lists what 2.2 changes).
  crd: { canonical: 'http://hl7.org/fhir/us/davinci-crd/ImplementationGuide/hl7.fhir.us.davinci-crd', version: '2.0.1' },
} as const;

const USDF = 'http://hl7.org/fhir/us/davinci-drug-formulary';
export const USDF_SD = `${USDF}/StructureDefinition`;
export const USDF_PROFILE = {
  formulary: `${USDF_SD}/usdf-Formulary`,
  formularyItem: `${USDF_SD}/usdf-FormularyItem`,
  formularyDrug: `${USDF_SD}/usdf-FormularyDrug`,
  payerInsurancePlan: `${USDF_SD}/usdf-PayerInsurancePlan`,
  insurancePlanLocation: `${USDF_SD}/usdf-InsurancePlanLocation`,
} as const;
export const USDF_CAPABILITY = 'http://hl7.org/fhir/us/davinci-drug-formulary/CapabilityStatement/usdf-server';
/** The USDF SearchParameter canonicals (base: the IG's). */
export const USDF_SP = `${USDF}/SearchParameter`;
export const USDF_EXT = {
  formularyReference: `${USDF_SD}/usdf-FormularyReference-extension`,
  availabilityStatus: `${USDF_SD}/usdf-AvailabilityStatus-extension`,
  pharmacyBenefitType: `${USDF_SD}/usdf-PharmacyBenefitType-extension`,
  drugTier: `${USDF_SD}/usdf-DrugTierID-extension`,
  priorAuthorization: `${USDF_SD}/usdf-PriorAuthorization-extension`,
  priorAuthorizationNewStartsOnly: `${USDF_SD}/usdf-PriorAuthorizationNewStartsOnly-extension`,
  stepTherapyLimit: `${USDF_SD}/usdf-StepTherapyLimit-extension`,
  stepTherapyLimitNewStartsOnly: `${USDF_SD}/usdf-StepTherapyLimitNewStartsOnly-extension`,
  availabilityPeriod: `${USDF_SD}/usdf-AvailabilityPeriod-extension`,
  quantityLimit: `${USDF_SD}/usdf-QuantityLimit-extension`,
} as const;
export const USDF_CS = {
  itemType: `${USDF}/CodeSystem/usdf-InsuranceItemTypeCS`,
  pharmacyBenefitType: `${USDF}/CodeSystem/usdf-PharmacyBenefitTypeCS-TEMPORARY-TRIAL-USE`,
  drugTier: `${USDF}/CodeSystem/usdf-DrugTierCS-TEMPORARY-TRIAL-USE`,
} as const;

const DTR = 'http://hl7.org/fhir/us/davinci-dtr';
export const DTR_PROFILE = {
  stdQuestionnaire: `${DTR}/StructureDefinition/dtr-std-questionnaire`,
  adaptQuestionnaire: `${DTR}/StructureDefinition/dtr-questionnaire-adapt`,
  /** The adaptive form as a package or a read returns it (url 1..1), before a session fills it. */
  adaptQuestionnaireSearch: `${DTR}/StructureDefinition/dtr-questionnaire-adapt-search`,
  questionnaireResponse: `${DTR}/StructureDefinition/dtr-questionnaireresponse`,
  packageBundle: `${DTR}/StructureDefinition/DTR-QPackageBundle`,
  inputParameters: `${DTR}/StructureDefinition/dtr-qpackage-input-parameters`,
  outputParameters: `${DTR}/StructureDefinition/dtr-qpackage-output-parameters`,
} as const;
export const DTR_EXT = {
  qrContext: `${DTR}/StructureDefinition/qr-context`,
  intendedUse: `${DTR}/StructureDefinition/intendedUse`,
  informationOrigin: `${DTR}/StructureDefinition/information-origin`,
} as const;
export const DTR_OPERATION = {
  questionnairePackage: `${DTR}/OperationDefinition/questionnaire-package`,
  /** DTR 2.0.1 uses SDC's $next-question for adaptive forms. */
  nextQuestion: 'http://hl7.org/fhir/uv/sdc/OperationDefinition/Questionnaire-next-question',
} as const;
/** DTR 2.0.1 (dtr-qpackage-output-parameters) names the output parameter `PackageBundle` (2.2.0 renamed it `packagebundle`). */
export const DTR_PACKAGE_PARAM = 'PackageBundle';
/** The output profile's slice for warnings is named `operationOutcome` (the OperationDefinition says `outcome`). */
export const DTR_OUTCOME_PARAM = 'operationOutcome';

export const SDC_EXT = {
  launchContext: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-launchContext',
  initialExpression: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-initialExpression',
  candidateExpression: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-candidateExpression',
  contextExpression: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-contextExpression',
  itemPopulationContext: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-itemPopulationContext',
  questionnaireAdaptive: 'http://hl7.org/fhir/uv/sdc/StructureDefinition/sdc-questionnaire-questionnaireAdaptive',
  /** Core extensions SDC and DTR use. */
  variable: 'http://hl7.org/fhir/StructureDefinition/variable',
  cqfLibrary: 'http://hl7.org/fhir/StructureDefinition/cqf-library',
  mimeType: 'http://hl7.org/fhir/StructureDefinition/mimeType',
} as const;
export const SDC_LAUNCH_CONTEXT_CS = 'http://hl7.org/fhir/uv/sdc/CodeSystem/launchContext';

const PAS = 'http://hl7.org/fhir/us/davinci-pas';
export const PAS_PROFILE = {
  requestBundle: `${PAS}/StructureDefinition/profile-pas-request-bundle`,
  responseBundle: `${PAS}/StructureDefinition/profile-pas-response-bundle`,
  claimResponse: `${PAS}/StructureDefinition/profile-claimresponse`,
  claim: `${PAS}/StructureDefinition/profile-claim`,
  claimUpdate: `${PAS}/StructureDefinition/profile-claim-update`,
  claimInquiry: `${PAS}/StructureDefinition/profile-claim-inquiry`,
  inquiryRequestBundle: `${PAS}/StructureDefinition/profile-pas-inquiry-request-bundle`,
  inquiryResponseBundle: `${PAS}/StructureDefinition/profile-pas-inquiry-response-bundle`,
  claimInquiryResponse: `${PAS}/StructureDefinition/profile-claiminquiryresponse`,
  subscription: `${PAS}/StructureDefinition/profile-subscription`,
  task: `${PAS}/StructureDefinition/profile-task`,
} as const;
/** PAS temporary codes (Task codes, input types, reason). */
export const PAS_TEMP_CODES = `${PAS}/CodeSystem/PASTempCodes`;
/** The PAS SubscriptionTopic (R4 Subscriptions Backport): ClaimResponse results made ready for pended requests. */
export const PAS_SUBSCRIPTION_TOPIC = `${PAS}/SubscriptionTopic/PASSubscriptionTopic`;
export const PAS_EXT = {
  reviewAction: `${PAS}/StructureDefinition/extension-reviewAction`,
  reviewActionCode: `${PAS}/StructureDefinition/extension-reviewActionCode`,
  itemPreAuthIssueDate: `${PAS}/StructureDefinition/extension-itemPreAuthIssueDate`,
  identifierJurisdiction: `${PAS}/StructureDefinition/extension-identifierJurisdiction`,
  requestedService: `${PAS}/StructureDefinition/extension-requestedService`,
  itemPreAuthPeriod: `${PAS}/StructureDefinition/extension-itemPreAuthPeriod`,
  administrationReferenceNumber: `${PAS}/StructureDefinition/extension-administrationReferenceNumber`,
  certificationType: `${PAS}/StructureDefinition/extension-certificationType`,
  infoCancelled: `${PAS}/StructureDefinition/modifierextension-infoCancelled`,
  infoChanged: `${PAS}/StructureDefinition/extension-infoChanged`,
  errorPath: `${PAS}/StructureDefinition/extension-errorPath`,
  errorFollowupAction: `${PAS}/StructureDefinition/extension-errorFollowupAction`,
  claimResponseReviewer: `${PAS}/StructureDefinition/extension-claimResponseReviewer`,
  itemTraceNumber: `${PAS}/StructureDefinition/extension-itemTraceNumber`,
  authorizationNumber: `${PAS}/StructureDefinition/extension-authorizationNumber`,
  itemRequestedServiceDate: `${PAS}/StructureDefinition/extension-itemRequestedServiceDate`,
  communicatedDiagnosis: `${PAS}/StructureDefinition/extension-communicatedDiagnosis`,
  itemAuthorizedDetail: `${PAS}/StructureDefinition/extension-itemAuthorizedDetail`,
  itemAuthorizedProvider: `${PAS}/StructureDefinition/extension-itemAuthorizedProvider`,
  serviceLineNumber: `${PAS}/StructureDefinition/extension-serviceLineNumber`,
} as const;
export const PAS_OPERATION = {
  submit: `${PAS}/OperationDefinition/Claim-submit`,
  inquire: `${PAS}/OperationDefinition/Claim-inquiry`,
} as const;
/** X12 306 (Action Code), the reviewAction code system. */
export const X12_306 = 'https://codesystem.x12.org/005010/306';
export const REVIEW_ACTION = {
  A1: 'Certified in total',
  A3: 'Not Certified',
  A4: 'Pended',
} as const;
/** X12 1322 (Certification Type Code): `3` cancels (PAS updates). */
export const X12_1322 = 'https://codesystem.x12.org/005010/1322';
/** X12 901 (Reject Reason Code), bound to ClaimResponse.error.code. */
export const X12_901 = 'https://codesystem.x12.org/005010/901';
/** X12 889 (Follow-up Action Code), errorFollowupAction. */
export const X12_889 = 'https://codesystem.x12.org/005010/889';
/** X12 886 (Health Care Services Review Decision Reason Code), the reviewAction reasonCode system. */
export const X12_886 = 'https://codesystem.x12.org/external/886';
/**
 * The X12 901 / 889 codes we answer business problems with. X12 code lists are licensed, not public: these values
 * are the ones published in payers' public 278 companion guides (and 'T4' in the PAS error example), recorded
 * from those guides, not from the X12 list itself. Confirm against the licensed list before relying on them.
 */
export const X12_REJECT = {
  requiredDataMissing: { code: '15', display: 'Required application data missing' },
  authorizationNotFound: { code: 'AA', display: 'Authorization number not found' },
} as const;
export const X12_FOLLOWUP = { correctAndResubmit: { code: 'C', display: 'Please correct and resubmit' } } as const;

/** R4 Subscriptions Backport (hl7.fhir.uv.subscriptions-backport) URLs used by PAS 2.2.1 subscriptions. */
const BACKPORT = 'http://hl7.org/fhir/uv/subscriptions-backport';
export const BACKPORT_EXT = {
  filterCriteria: `${BACKPORT}/StructureDefinition/backport-filter-criteria`,
  payloadContent: `${BACKPORT}/StructureDefinition/backport-payload-content`,
  heartbeatPeriod: `${BACKPORT}/StructureDefinition/backport-heartbeat-period`,
  timeout: `${BACKPORT}/StructureDefinition/backport-timeout`,
  maxCount: `${BACKPORT}/StructureDefinition/backport-max-count`,
} as const;
export const BACKPORT_PROFILE = {
  subscription: `${BACKPORT}/StructureDefinition/backport-subscription`,
  status: `${BACKPORT}/StructureDefinition/backport-subscription-status-r4`,
  notification: `${BACKPORT}/StructureDefinition/backport-subscription-notification-r4`,
} as const;
export const SUBSCRIPTION_TOPIC_CANONICAL_EXT = 'http://hl7.org/fhir/uv/subscriptions-backport/StructureDefinition/capabilitystatement-subscriptiontopic-canonical';
export type ReviewActionCode = keyof typeof REVIEW_ACTION;

const CRD = 'http://hl7.org/fhir/us/davinci-crd';
export const CRD_EXT = {
  coverageInformation: `${CRD}/StructureDefinition/ext-coverage-information`,
  billingOptions: `${CRD}/StructureDefinition/ext-billing-options`,
} as const;
export const CRD_TEMP_CS = `${CRD}/CodeSystem/temp`;
export const CRD_VERSION = '2.0.1';
/** CRD 2.0.1 profiles a system action's resource must meet (the test kit validates against them). */
export const CRD_PROFILE = {
  ServiceRequest: `${CRD}/StructureDefinition/profile-servicerequest`,
  DeviceRequest: `${CRD}/StructureDefinition/profile-devicerequest`,
  MedicationRequest: `${CRD}/StructureDefinition/profile-medicationrequest`,
  Appointment: `${CRD}/StructureDefinition/profile-appointment`,
  Encounter: `${CRD}/StructureDefinition/profile-encounter`,
  NutritionOrder: `${CRD}/StructureDefinition/profile-nutritionorder`,
  VisionPrescription: `${CRD}/StructureDefinition/profile-visionprescription`,
  CommunicationRequest: `${CRD}/StructureDefinition/profile-communicationrequest`,
} as const;

export const CODE_SYSTEMS = {
  rxnorm: 'http://www.nlm.nih.gov/research/umls/rxnorm',
  cpt: 'http://www.ama-assn.org/go/cpt',
  hcpcs: 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  usps: 'https://www.usps.com/',
  actCode: 'http://terminology.hl7.org/CodeSystem/v3-ActCode',
  coverageClass: 'http://terminology.hl7.org/CodeSystem/coverage-class',
  sopt: 'https://nahdo.org/sopt',
  adjudication: 'http://terminology.hl7.org/CodeSystem/adjudication',
  claimType: 'http://terminology.hl7.org/CodeSystem/claim-type',
  noteType: 'http://hl7.org/fhir/note-type',
  dataAbsentReason: 'http://terminology.hl7.org/CodeSystem/data-absent-reason',
} as const;

/** Spellings of the procedure-code systems seen in the wild (CPT is HCPCS Level I; both match our code lists). */
export const PROCEDURE_CODE_SYSTEMS: readonly string[] = [
  CODE_SYSTEMS.cpt,
  'urn:oid:2.16.840.1.113883.6.12',
  CODE_SYSTEMS.hcpcs,
  'http://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets',
  'urn:oid:2.16.840.1.113883.6.285',
  'urn:oid:2.16.840.1.113883.6.14',
  // CMS Blue Button's HCPCS system: what the Inferno CRD/DTR test kits and CARIN BB data send.
  'https://bluebutton.cms.gov/resources/codesystem/hcpcs',
  'http://bluebutton.cms.gov/resources/codesystem/hcpcs',
];
/** Source of Payment Typology spellings (the NAHDO URL US Core binds Coverage.type to, and its OID). */
export const SOPT_SYSTEMS: readonly string[] = [CODE_SYSTEMS.sopt, 'http://nahdo.org/sopt', 'urn:oid:2.16.840.1.113883.3.221.5'];
export const RXNORM_SYSTEMS: readonly string[] = [CODE_SYSTEMS.rxnorm, 'urn:oid:2.16.840.1.113883.6.88'];

/** Our own code system for coverage-information `detail` codes (no standard one exists for these). */
export const PRAUTH_DETAIL_CS = 'urn:prauth:coverage-detail';
/** Identifier system of the preauthorization reference we hand out for inquiry. */
export const PRAUTH_PREAUTH_ID_SYSTEM = 'urn:prauth:preauth-ref';
/** Identifiers of the Tasks a pended PAS item asks for documentation with (`{preAuthRef}-{item sequence}`). */
export const PRAUTH_PAS_TASK_SYSTEM = 'urn:prauth:pas-task';
