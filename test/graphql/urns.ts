/** The entities the GraphQL tests write and read back, one of each type, shared by their files. */
export const FLOW = 'urn:li:dataFlow:(airflow,nightly,prod)';
export const JOB = `urn:li:dataJob:(${FLOW},load_orders)`;
export const CHART = 'urn:li:chart:(looker,revenue)';
export const DASHBOARD = 'urn:li:dashboard:(looker,sales)';
export const CONTAINER = 'urn:li:container:warehouse';
export const USER = 'urn:li:corpuser:jdoe';
export const GROUP = 'urn:li:corpGroup:analytics';
export const TERM = 'urn:li:glossaryTerm:Finance.Revenue';
export const NODE = 'urn:li:glossaryNode:Finance';
export const TAG = 'urn:li:tag:pii';
export const DOMAIN = 'urn:li:domain:sales';
export const PRODUCT = 'urn:li:dataProduct:orders';
export const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)';
export const MODEL_GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churners,PROD)';
export const FEATURE_TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,users)';
export const FEATURE = 'urn:li:mlFeature:(users,age)';
export const PRIMARY_KEY = 'urn:li:mlPrimaryKey:(users,user_id)';
